import type { EnvironmentReader } from './environment-reader';
import type { MasterKeyring } from './gateway-config';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const PREVIOUS_KEY_ENTRY = /^(\d+):([0-9a-fA-F]{64})$/;
const KEY_REQUIREMENT = 'must be 64 hex characters (32 bytes); generate one with `openssl rand -hex 32`';

/**
 * MASTER_KEY (with MASTER_KEY_VERSION) encrypts new channel secrets; MASTER_KEYS_PREVIOUS
 * (`version:hex,version:hex`) keeps older keys readable during a rotation.
 */
export function parseMasterKeyring(reader: EnvironmentReader): MasterKeyring {
  const currentKeyHex = reader.secret('MASTER_KEY', (value) => HEX_KEY.test(value), KEY_REQUIREMENT);
  const currentVersion = reader.integer('MASTER_KEY_VERSION', 1, { min: 1, max: 2_147_483_647 });
  const currentKey = HEX_KEY.test(currentKeyHex) ? Buffer.from(currentKeyHex, 'hex') : Buffer.alloc(32);
  const keys = new Map<number, Buffer>([[currentVersion, currentKey]]);

  reader.list('MASTER_KEYS_PREVIOUS').forEach((entry, index) => {
    const match = PREVIOUS_KEY_ENTRY.exec(entry);
    const position = `MASTER_KEYS_PREVIOUS entry ${index + 1}`;
    if (!match) {
      reader.addProblem(`${position} must be <version>:<64 hex characters>`);
      return;
    }
    const version = Number(match[1]);
    if (!Number.isSafeInteger(version) || version < 1) {
      reader.addProblem(`${position} must have a version of at least 1`);
    } else if (version === currentVersion) {
      reader.addProblem(`${position} reuses the current MASTER_KEY_VERSION ${currentVersion}`);
    } else if (keys.has(version)) {
      reader.addProblem(`${position} repeats version ${version}`);
    } else {
      keys.set(version, Buffer.from(match[2], 'hex'));
    }
  });

  return { currentVersion, currentKey, keys };
}
