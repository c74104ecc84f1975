// A private PostgreSQL cluster for one bench run: initdb as the `postgres` user in a folder under /tmp,
// on its own port, stopped and removed whatever happens (normal end, an error, Ctrl-C, SIGTERM: it is
// one of the harness's cleanups). Its
// CPU is read from /proc: the postmaster's own time, the time of the children it has reaped (cutime,
// cstime) and the time of every live child (backends, checkpointer, WAL writer, autovacuum), so a
// backend that exits during a measurement still counts.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { onCleanup } from './harness.ts';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const HZ = 100;

/** A free TCP port on 127.0.0.1. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Whether the Debian package ships pg_stat_statements for this server. */
const hasStatStatements = () => {
  try {
    const libdir = execFileSync(join(BIN, 'pg_config'), ['--pkglibdir'], { encoding: 'utf8' }).trim();
    return existsSync(join(libdir, 'pg_stat_statements.so'));
  } catch {
    return existsSync('/usr/lib/postgresql/15/lib/pg_stat_statements.so');
  }
};

const asPostgres = (command: string) => {
  const args = process.getuid?.() === 0 ? ['su', 'postgres', '-c', command] : ['sh', '-c', command];
  return execFileSync(args[0]!, args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
};

/** utime, stime, cutime, cstime and ppid of a process, in ticks; undefined once it has gone. */
function statOf(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** CPU ms of a process (utime + stime), 0 once it has gone. */
export const processCpuMs = (pid: number) => ((statOf(pid)?.own ?? 0) * 1000) / HZ;

/**
 * Context switches of a process so far, voluntary and forced, summed over its threads (a Node
 * server's GC and thread-pool threads too); 0 once it has gone.
 */
export function contextSwitches(pid: number): number {
  let total = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
        for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm))
          total += Number(match[1]);
      } catch {}
    }
  } catch {}
  return total;
}

export interface PrivatePostgres {
  port: number;
  /** A URL to database `name` of the cluster as the superuser. */
  url(name?: string): string;
  /** Creates database `name` in the cluster; its URL. */
  database(name: string): Promise<string>;
  /** Whether pg_stat_statements is loaded (the extension still has to be created per database). */
  statStatements: boolean;
  /** CPU ms used so far by the whole cluster: the postmaster, its reaped children and its live ones. */
  cpuMs(): number;
  /**
   * The same CPU split three ways: live client backends, live background processes (WAL writer,
   * checkpointer, autovacuum…), and the postmaster with the children it has reaped (a backend that
   * exited: its whole life's CPU lands here when it ends).
   */
  cpuSplitMs(): { backends: number; background: number; reaped: number };
  /** Context switches of the cluster's live processes so far (an exited backend's are lost). */
  contextSwitches(): number;
  /** CPU ms of one backend (to leave a monitoring connection's own work out). */
  backendCpuMs(pid: number): number;
  stop(): Promise<void>;
}

/**
 * Starts a private cluster; `settings` become `-c name=value` options of the postmaster, `locale` is
 * initdb's (the import bench builds its text indexes in the C locale), `statements: false` leaves
 * pg_stat_statements out.
 */
export async function startPrivatePostgres(
  settings: Record<string, string> = {},
  { locale = 'C.UTF-8', statements = true }: { locale?: string; statements?: boolean } = {},
): Promise<PrivatePostgres> {
  const dir = mkdtempSync('/tmp/fp-bench-pg-');
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  // pg_stat_statements, unless the bench wants the server as a deployment runs it.
  const statStatements = statements && hasStatStatements();
  const cluster: PrivatePostgres = {
    port,
    statStatements,
    url: (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async database(name) {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    cpuMs() {
      const postmaster = postmasterPid();
      if (!postmaster) return 0;
      let ticks = 0;
      const main = statOf(postmaster);
      if (main) ticks += main.own + main.reaped;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = statOf(Number(entry));
        if (stat?.ppid === postmaster) ticks += stat.own;
      }
      return (ticks * 1000) / HZ;
    },
    cpuSplitMs() {
      const split = { backends: 0, background: 0, reaped: 0 };
      const postmaster = postmasterPid();
      if (!postmaster) return split;
      const main = statOf(postmaster);
      if (main) split.reaped += ((main.own + main.reaped) * 1000) / HZ;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = statOf(Number(entry));
        if (stat?.ppid !== postmaster) continue;
        let title = '';
        try {
          title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        } catch {}
        // A client backend's title is `postgres: <user> <database> <host>…`; a background
        // process's names its role (`postgres: walwriter`, `postgres: autovacuum worker`).
        const client = /^postgres: \S+ \S+ \d/.test(title);
        split[client ? 'backends' : 'background'] += (stat.own * 1000) / HZ;
      }
      return split;
    },
    contextSwitches() {
      const postmaster = postmasterPid();
      if (!postmaster) return 0;
      let total = contextSwitches(postmaster);
      for (const entry of readdirSync('/proc')) {
        if (/^\d+$/.test(entry) && statOf(Number(entry))?.ppid === postmaster)
          total += contextSwitches(Number(entry));
      }
      return total;
    },
    backendCpuMs: processCpuMs,
    stop: () => stopCluster(),
  };
  const postmasterPid = () => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return 0;
    }
  };
  const stopNow = () => {
    try {
      asPostgres(`${BIN}/pg_ctl -D ${data} -m immediate -w stop`);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  const stopCluster = onCleanup(`private PostgreSQL in ${dir}`, stopNow, stopNow);
  try {
    asPostgres(`${BIN}/initdb -D ${data} -U postgres -A trust --no-sync -E UTF8 --locale=${locale}`);
    const options = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: dir,
      max_connections: '200',
      ...(statStatements
        ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.max': '10000' }
        : {}),
      ...settings,
    };
    const flags = Object.entries(options)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ');
    asPostgres(`${BIN}/pg_ctl -D ${data} -l ${join(dir, 'log')} -w -o '${flags}' start`);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
