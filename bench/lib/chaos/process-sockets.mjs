// The TCP connections a process holds, read from /proc: which local addresses its sockets to a given
// port use. The Redis fault kills only the connections of the processes the script started (the
// server is shared), and Redis knows its clients only by address.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const ESTABLISHED = '01';

/** `0100007F:18EB` → `127.0.0.1:6379`; the IPv6 form as Redis prints it: `[::1]:6379`. */
export function addressFromProcHex(hex) {
  const [hostHex, portHex] = hex.split(':');
  const port = Number.parseInt(portHex, 16);
  // Each 32-bit word of the address is in the kernel's (little-endian) byte order.
  const bytes = [];
  for (let word = 0; word < hostHex.length; word += 8) {
    const wordHex = hostHex.slice(word, word + 8);
    for (let byte = 6; byte >= 0; byte -= 2) bytes.push(Number.parseInt(wordHex.slice(byte, byte + 2), 16));
  }
  if (bytes.length === 4) return `${bytes.join('.')}:${port}`;
  const groups = [];
  for (let index = 0; index < 16; index += 2)
    groups.push(((bytes[index] << 8) | bytes[index + 1]).toString(16));
  // The URL parser writes an IPv6 host in its shortest form, as Redis does.
  return `${new URL(`http://[${groups.join(':')}]`).hostname}:${port}`;
}

/** The established connections of a /proc/net/tcp or tcp6 table: { localAddress, remotePort, inode }. */
export function parseProcNetTcp(text) {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 10 && fields[3] === ESTABLISHED)
    .map((fields) => ({
      localAddress: addressFromProcHex(fields[1]),
      remotePort: Number.parseInt(fields[2].split(':')[1], 16),
      inode: fields[9],
    }));
}

function socketInodesOf(pid) {
  const inodes = new Set();
  let descriptors;
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes; // the process is gone
  }
  for (const descriptor of descriptors) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match) inodes.add(match[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  return inodes;
}

/** The local addresses of process `pid`'s established connections to `remotePort`. */
export function localAddressesOf(pid, remotePort) {
  const inodes = socketInodesOf(pid);
  const addresses = [];
  for (const table of ['tcp', 'tcp6']) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const connection of parseProcNetTcp(text)) {
      if (connection.remotePort === remotePort && inodes.has(connection.inode)) {
        addresses.push(connection.localAddress);
      }
    }
  }
  return addresses;
}
