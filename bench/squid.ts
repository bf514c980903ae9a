/**
 * Squid for the gateway bench: what an operator would run instead of our gateway. A minimal
 * configuration in a temporary folder — no cache, loopback clients only, no logs, its own port — in the
 * foreground (`-N`: one process, no daemon, no SMP workers), started and stopped by the bench. Debian's
 * `squid` package; without it the bench leaves the column out and says so.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Squid {
  port: number;
  pid: number;
  /** User + system CPU of the process so far, µs (from /proc, as the other servers report theirs). */
  cpuUs(): number;
  rss(): number;
  stop(): Promise<void>;
}

/** Where squid is, or null when it is not installed. */
export function squidBinary(): string | null {
  for (const bin of ['squid', '/usr/sbin/squid']) if (spawnSync(bin, ['-v'], { stdio: 'ignore' }).status === 0) return bin;
  return null;
}

/** Squids started and not yet stopped: killed, and their folders removed, when the bench exits in any way. */
const running = new Set<{ proc: ChildProcess; dir: string }>();
process.on('exit', () => {
  for (const r of running) {
    r.proc.kill('SIGKILL');
    rmSync(r.dir, { recursive: true, force: true });
  }
});

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Starts squid on a free loopback port; `pin` is called with its pid (the bench pins servers to a core). */
export async function startSquid(bin: string, host: string, pin: (pid: number) => void): Promise<Squid> {
  const port = await freePort(host);
  const dir = mkdtempSync(join(tmpdir(), 'resi-bench-squid-'));
  // Squid started as root drops to its own user (`proxy` on Debian), which must read the folder.
  chmodSync(dir, 0o755);
  const conf = join(dir, 'squid.conf');
  writeFileSync(
    conf,
    [
      `http_port ${host}:${port}`,
      // `localhost` is squid's built-in ACL for 127.0.0.1 and ::1; no port restriction on CONNECT.
      'http_access allow localhost',
      'http_access deny all',
      'cache deny all',
      'cache_mem 0 MB',
      'access_log none',
      'cache_log /dev/null',
      'pid_filename none',
      `coredump_dir ${dir}`,
      'shutdown_lifetime 0 seconds',
      // 1,000 idle tunnels are two descriptors each.
      'max_filedescriptors 16384',
      // Our gateway adds no Via or X-Forwarded-For either.
      'via off',
      'forwarded_for delete',
      '',
    ].join('\n'),
  );
  const proc: ChildProcess = spawn(bin, ['-N', '-f', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const pid = proc.pid;
  if (!pid) throw new Error('squid did not start');
  const entry = { proc, dir };
  running.add(entry);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  for (let i = 0; !(await accepts(host, port)); i++) {
    if (proc.exitCode !== null || i > 100) throw new Error(`squid did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  pin(pid);
  const stat = () => {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  return {
    port,
    pid,
    // Fields 14 and 15 of /proc/PID/stat (utime, stime) in clock ticks, 100 a second on Linux.
    cpuUs: () => {
      const f = stat();
      return (Number(f[11]) + Number(f[12])) * 10_000;
    },
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] ?? 0) * 1024,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
      running.delete(entry);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
