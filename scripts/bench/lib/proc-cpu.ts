// CPU time from /proc (Linux): of a process and its children, or of every process with a given name (PostgreSQL's
// backends come and go, so they are counted by name). Returns milliseconds of user + system time so far.
import fs from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on (getconf CLK_TCK)

type Stat = { pid: number; comm: string; ppid: number; ms: number };

function readStat(pid: string): Stat | null {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = raw.lastIndexOf(")");
    const fields = raw.slice(close + 2).split(" ");
    // After the command: state, ppid, ... utime (14th field of the line, 12th here) and stime.
    return {
      pid: Number(pid),
      comm: raw.slice(raw.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      ms: ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000,
    };
  } catch {
    return null; // gone meanwhile
  }
}

function allStats(): Stat[] {
  return fs
    .readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .map(readStat)
    .filter((s): s is Stat => s !== null);
}

/** CPU ms of `pid` and its direct children. */
export function treeCpuMs(pid: number): number {
  return allStats()
    .filter((s) => s.pid === pid || s.ppid === pid)
    .reduce((ms, s) => ms + s.ms, 0);
}

/** CPU ms of every process named `comm` (the ones alive now). */
export function namedCpuMs(comm: string): number {
  return allStats()
    .filter((s) => s.comm === comm)
    .reduce((ms, s) => ms + s.ms, 0);
}

export const procCpuAvailable = () => fs.existsSync("/proc/self/stat");
