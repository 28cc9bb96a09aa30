// Free TCP ports on 127.0.0.1 for the servers a test run starts: each run gets ports of its own instead of
// the servers' defaults (9092, 9090, 8081, ...), which may belong to a user's own server or another run.
import net from 'node:net';

function listen(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve(server));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Picks `groups.length` groups of ports; group i is `groups[i]` consecutive ports (a Kafka broker's client port
 * and its controller port at client port + 1). Every port is held until all are chosen, so no two groups share
 * one; they are released on return, and the server started on them binds them a moment later. The kernel hands
 * out ephemeral ports round-robin, so another process grabbing one in that moment is unlikely, and the start
 * scripts refuse a port that is taken.
 */
export async function freePortGroups(groups: readonly number[]): Promise<number[][]> {
  const held: net.Server[] = [];
  const out: number[][] = [];
  try {
    for (const size of groups) {
      let group: number[] | undefined;
      for (let attempt = 0; attempt < 100 && !group; attempt++) {
        const first = await listen(0);
        if (!first) continue;
        const base = (first.address() as net.AddressInfo).port;
        const rest: net.Server[] = [];
        for (let i = 1; i < size; i++) {
          const s = base + i <= 65535 ? await listen(base + i) : undefined;
          if (!s) break;
          rest.push(s);
        }
        if (rest.length === size - 1) {
          held.push(first, ...rest);
          group = Array.from({ length: size }, (_, i) => base + i);
        } else {
          await Promise.all([first, ...rest].map(close));
        }
      }
      if (!group) throw new Error(`no ${size} consecutive free ports found on 127.0.0.1`);
      out.push(group);
    }
    return out;
  } finally {
    await Promise.all(held.map(close));
  }
}
