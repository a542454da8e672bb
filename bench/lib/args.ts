/** Command-line flags of `npm run bench` (see docs/performance.md). */
export interface BenchArgs {
  smoke: boolean;
  only: string[];
  skipPeer: boolean;
  runs: number | null;
  out: string | null;
  list: boolean;
  help: boolean;
  profile: boolean;
  /** smoke runs judge the gated figures against docs/performance-gate.json unless --no-gate */
  gate: boolean;
}

export const USAGE = `npm run bench [-- flags]
  --smoke            short run on small data (CI): every part once, a second or two per figure
  --only a,b         only figures whose id starts with one of these (e.g. api.shop-list, console.list)
  --skip-peer        do not install or measure the amis peer
  --runs N           page loads per browser figure (median taken); default 7, smoke 1
  --out FILE         where to write the JSON (default bench/results/latest.json; smoke: smoke.json)
  --no-gate          a smoke run does not judge its figures against docs/performance-gate.json
  --list             print the figure ids and exit
  --profile          console pages: one profiled load each (unminified build) instead of timings;
                     writes bench/results/profiles/*.cpuprofile and prints the top functions
Environment: DATABASE_URL → API figures on PostgreSQL (else PGlite in bench/.data).`;

export function parseArgs(argv: string[]): BenchArgs {
  const a: BenchArgs = { smoke: false, only: [], skipPeer: false, runs: null, out: null, list: false, help: false, profile: false, gate: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--smoke':
        a.smoke = true;
        break;
      case '--only':
        a.only.push(...value().split(',').map((s) => s.trim()).filter(Boolean));
        break;
      case '--skip-peer':
        a.skipPeer = true;
        break;
      case '--runs': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new Error('--runs must be a positive integer');
        a.runs = n;
        break;
      }
      case '--out':
        a.out = value();
        break;
      case '--profile':
        a.profile = true;
        break;
      case '--list':
        a.list = true;
        break;
      case '--no-gate':
        a.gate = false;
        break;
      case '-h':
      case '--help':
        a.help = true;
        break;
      default:
        throw new Error(`unknown flag ${arg}\n${USAGE}`);
    }
  }
  return a;
}

/** Does a figure id match one of the `--only` prefixes (or is it wanted because none were given)? */
export function matches(only: string[], id: string): boolean {
  if (only.length === 0) return true;
  return only.some((o) => id === o || id.startsWith(o + '.') || o.startsWith(id + '.') || id.startsWith(o));
}
