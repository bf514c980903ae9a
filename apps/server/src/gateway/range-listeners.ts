import net from 'node:net';

/**
 * Port endpoints (docs/gateway.md#port-endpoints): a listener also accepts on every port of a range, each
 * port its own listening socket (Node binds one port per server), all handing their connections to the
 * listener's one `accept` with the port they came in on.
 */
export class RangeServers {
  private readonly servers: net.Server[] = [];

  constructor(
    private readonly host: string,
    private readonly range: readonly [number, number] | undefined,
    private readonly accept: (socket: net.Socket, port: number) => void,
    private readonly serverOptions: net.ServerOpts,
    private readonly onAcceptError: (err: NodeJS.ErrnoException) => void,
  ) {}

  /** Binds every port of the range; rejects (and closes what it bound) when one is taken. */
  async listen(): Promise<void> {
    if (!this.range) return;
    const [first, last] = this.range;
    try {
      for (let port = first; port <= last; port++) {
        const server = net.createServer(this.serverOptions, (socket) => this.accept(socket, port));
        this.servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, this.host, () => {
            server.removeListener('error', reject);
            server.on('error', this.onAcceptError);
            resolve();
          });
        });
      }
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  async close(): Promise<void> {
    const servers = this.servers.splice(0);
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
}
