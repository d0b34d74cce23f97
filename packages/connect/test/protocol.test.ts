// The checks both sides of the widget run on every message and on the frame's URL.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { envelope, frameQuery, isChannel, isWebOrigin, MESSAGE_SOURCE, openEnvelope } from '../src/protocol.ts';

const channel = '6f1c2b7e-9d3a-4c55-8e21-0b7d4a9c3f10';

describe("the widget's messages", () => {
  it('opens only an envelope of this widget on this channel, with a type', () => {
    const sent = envelope(channel, { type: 'ready' });
    assert.deepEqual(sent, { type: 'ready', source: MESSAGE_SOURCE, channel });
    assert.deepEqual(openEnvelope(sent, channel), sent);
    for (const data of [
      undefined,
      null,
      'ready',
      42,
      { type: 'ready' },
      { ...sent, channel: crypto.randomUUID() },
      { ...sent, source: 'another-widget' },
      { source: MESSAGE_SOURCE, channel },
      { source: MESSAGE_SOURCE, channel, type: 7 },
    ]) {
      assert.equal(openEnvelope(data, channel), undefined, JSON.stringify(data));
    }
  });

  it('takes only http and https origins written as URL writes them', () => {
    for (const origin of ['http://localhost:5173', 'https://app.example', 'http://127.0.0.1:3000', 'https://[::1]:8443'])
      assert.equal(isWebOrigin(origin), true, origin);
    for (const origin of [
      undefined,
      null,
      '',
      'null',
      'file://',
      'http://localhost:5173/',
      'HTTP://LOCALHOST',
      'data:text/html,x',
      'ws://a.example',
      'https://a.example:443',
      'not a url',
    ]) {
      assert.equal(isWebOrigin(origin), false, String(origin));
    }
  });

  it('takes as a channel only what crypto.randomUUID() makes', () => {
    assert.equal(isChannel(crypto.randomUUID()), true);
    for (const candidate of [undefined, null, '', 'x', `${channel}x`, "'; script-src *", channel.toUpperCase()])
      assert.equal(isChannel(candidate), false, String(candidate));
  });

  it("writes the frame's query with both values escaped", () => {
    assert.equal(frameQuery('http://localhost:5173', channel), `?origin=http%3A%2F%2Flocalhost%3A5173&channel=${channel}`);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(frameQuery('https://a.example', channel))), { origin: 'https://a.example', channel });
  });
});
