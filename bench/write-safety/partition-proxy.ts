/**
 * A TCP proxy on a loopback port that can partition the network: once a request containing a watched text
 * (`POST /payments`) went through and its answer starts to come back, every byte in both directions is dropped — open connections stay open and
 * silent, new connections are accepted and hear nothing, as behind a blackholing firewall, not a refusal. `heal()`
 * ends the partition: the connections cut off are reset (their peers have long given up) and new ones pass again.
 * Plain `node:net`, as test/fixtures/tcp-proxy.ts.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface PartitionProxy {
  port: number;
  url: string;
  /** Resolves when the partition started (the watched text went through). */
  partitioned: Promise<void>;
  heal(): void;
  close(): Promise<void>;
}

export async function startPartitionProxy(targetPort: number, watch: string): Promise<PartitionProxy> {
  let blackhole = false;
  let onPartition: () => void = () => undefined;
  const partitioned = new Promise<void>((ok) => (onPartition = ok));
  /** Connections cut off by the partition; reset on heal. */
  const held = new Set<Socket>();
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('error', () => undefined);
    client.on('close', () => open.delete(client));
    if (blackhole) {
      held.add(client);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      open.delete(upstream);
      if (!blackhole) client.destroy();
    });
    client.on('close', () => upstream.destroy());
    let watched = false;
    client.on('data', (chunk: Buffer) => {
      if (blackhole) return held.add(client);
      upstream.write(chunk);
      if (chunk.toString('latin1').includes(watch)) watched = true;
    });
    upstream.on('data', (chunk: Buffer) => {
      // The watched request went through whole and its answer is coming back: from here on, nothing passes.
      if (watched && !blackhole) {
        blackhole = true;
        onPartition();
      }
      if (blackhole) return held.add(client);
      client.write(chunk);
    });
  });
  const port = await new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.address() as { port: number }).port)),
  );
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    partitioned,
    heal() {
      blackhole = false;
      for (const s of held) s.resetAndDestroy();
      held.clear();
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const s of open) s.destroy();
      }),
  };
}
