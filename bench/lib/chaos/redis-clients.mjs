// Redis's view of its clients (CLIENT LIST), and the ids of those at given addresses.

/** One entry per line of CLIENT LIST: its `key=value` fields (`id`, `addr`, `name`, `cmd`, …). */
export function parseClientList(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) =>
      Object.fromEntries(
        line.split(' ').map((field) => {
          const equals = field.indexOf('=');
          return [field.slice(0, equals), field.slice(equals + 1)];
        }),
      ),
    );
}

/** The ids of the clients whose address (as Redis sees it: the client's side) is in `addresses`. */
export function clientIdsAt(clients, addresses) {
  const wanted = new Set(addresses);
  return clients.filter((client) => wanted.has(client.addr)).map((client) => client.id);
}
