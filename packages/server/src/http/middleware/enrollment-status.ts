// `Service-Enrollment-Status` on the account endpoints that report the enrollment's health.
import type { MiddlewareHandler } from 'hono';
import { enrollmentStatus } from '../../domain/lifecycle.ts';
import type { AppEnv } from '../env.ts';

export const ENROLLMENT_STATUS_HEADER = 'Service-Enrollment-Status';

export const enrollmentStatusHeader: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header(ENROLLMENT_STATUS_HEADER, enrollmentStatus(c.get('enrollment')));
  await next();
};
