// The sandbox's settings for a shared host, read from the environment. One switch,
// SANDBOX_HOSTED=on, gives the defaults of a hosted sandbox; each setting can still be given
// on its own.

import type { AppOptions } from './app.ts';
import { HOSTED_LIMITS, NO_LIMITS, type SandboxLimits } from './domain/limits.ts';
import { DEFAULT_READ_CACHE_BYTES } from './http/read-cache.ts';

type Env = Record<string, string | undefined>;

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`${name} must be on or off, not "${env[name]}"`);
}

function count(env: Env, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number (0 for no limit), not "${value}"`);
  return parsed;
}

export function hostedSettingsFromEnv(env: Env): Pick<AppOptions, 'defaultApplication' | 'limits' | 'webhookTargets'> {
  const hosted = onOff(env, 'SANDBOX_HOSTED', false);
  const defaults: SandboxLimits = hosted ? HOSTED_LIMITS : NO_LIMITS;
  return {
    defaultApplication: onOff(env, 'SANDBOX_DEFAULT_APPLICATION', !hosted),
    webhookTargets: { allowPrivate: onOff(env, 'WEBHOOK_PRIVATE_TARGETS', !hosted) },
    limits: {
      applicationsPerClient: count(env, 'SANDBOX_APPLICATIONS_PER_CLIENT', defaults.applicationsPerClient),
      enrollmentsPerClient: count(env, 'SANDBOX_ENROLLMENTS_PER_CLIENT', defaults.enrollmentsPerClient),
      enrollmentsPerApplication: count(env, 'SANDBOX_ENROLLMENTS_PER_APPLICATION', defaults.enrollmentsPerApplication),
    },
  };
}

const MIB = 1024 * 1024;

/** READ_CACHE=off renders every read; SANDBOX_READ_CACHE_MB is the read cache's memory budget in MiB. */
export function readCacheFromEnv(env: Env): AppOptions['readCache'] {
  if (env.READ_CACHE === 'off') return false;
  const value = env.SANDBOX_READ_CACHE_MB?.trim();
  if (value === undefined || value === '') return { maxBytes: DEFAULT_READ_CACHE_BYTES };
  const megabytes = Number(value);
  if (!Number.isFinite(megabytes) || megabytes <= 0) {
    throw new Error(`SANDBOX_READ_CACHE_MB must be a number of MiB above 0 (READ_CACHE=off turns the cache off), not "${value}"`);
  }
  return { maxBytes: Math.round(megabytes * MIB) };
}
