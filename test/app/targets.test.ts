/**
 * The webhook targets' block list (src/app/targets.ts): IPv4 private ranges, also when an
 * IPv6 address carries them (issue 24 §8: ::/96 and ::ffff:0:0:0/96 were let through).
 */
import { describe, expect, it } from 'vitest';
import { checkTarget, isPrivateAddress } from '../../src/app/targets.ts';

describe('isPrivateAddress', () => {
  it('refuses private IPv4 written as IPv6: compatible, mapped, SIIT, 6to4, NAT64, Teredo', () => {
    for (const address of [
      '::7f00:1', '::127.0.0.1', '::a00:1', '::', '::1', // ::/96, IPv4-compatible
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', // ::ffff:0:0/96, mapped
      '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:0:c0a8:101', // ::ffff:0:0:0/96, SIIT
      '2002:7f00:1::', '2002:a00:1:1::1', // 6to4 of 127.0.0.1 and 10.0.0.1
      '64:ff9b::7f00:1', '64:ff9b:1::a00:1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', // NAT64, Teredo
      'fe80::1%eth0', 'fd00::1', 'ff02::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('lets public addresses through, in either family', () => {
    for (const address of ['93.184.215.14', '::ffff:93.184.215.14', '::5db8:d70e', '::ffff:0:5db8:d70e', '2002:5db8:d70e::1', '2606:4700::6810:84e5']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses such URLs when a webhook is created', async () => {
    for (const url of ['http://[::7f00:1]/x', 'http://[::ffff:0:7f00:1]/x', 'http://[::ffff:7f00:1]/x', 'http://[2002:7f00:1::]/x']) {
      await expect(checkTarget(new URL(url), false), url).rejects.toThrow(/private address/);
    }
  });

  it('names the switch for local development in the refusal, and lets such URLs through with it', async () => {
    await expect(checkTarget(new URL('http://127.0.0.1:8080/hook'), false)).rejects.toThrow(
      /is a loopback or private address \(127\.0\.0\.1\).*start it with WEBHOOK_ALLOW_PRIVATE=true/,
    );
    await expect(checkTarget(new URL('http://localhost:8080/hook'), false)).rejects.toThrow(/WEBHOOK_ALLOW_PRIVATE=true/);
    await expect(checkTarget(new URL('http://127.0.0.1:8080/hook'), true)).resolves.toBeUndefined();
  });
});
