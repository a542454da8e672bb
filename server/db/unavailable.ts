/** SQLSTATEs and socket errors of a database that cannot be reached or is shutting down. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
]);

const DRIVER_MESSAGES =
  /(^|: )(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|terminating connection due to administrator command)/;

/**
 * The database cannot be reached (refused, reset, shut down, starting up, too many connections):
 * an infrastructure fault that passes, never the fault of the request or the job that met it.
 */
export function databaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  // node-postgres, when a connection dies under a query or cannot be made in time — also inside
  // the message of an error that wrapped it without a cause ("indexing failed: Connection
  // terminated unexpectedly"), so a job that re-throws its own error spends no attempt on an outage
  if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message)) return true;
  if (err instanceof AggregateError && err.errors.some((x) => x !== err && databaseUnavailable(x))) return true;
  return e.cause !== undefined && e.cause !== err ? databaseUnavailable(e.cause) : false;
}

/**
 * The last net under a process (server.ts, worker.ts): a database error that nobody caught — a
 * promise of a background write rejected with no handler, an 'error' event of a connection with
 * no listener — is logged and the process goes on (its paths retry when the database is back).
 * Any other uncaught error still ends the process, as Node does by default.
 */
export function surviveDatabaseErrors(log: (msg: string) => void): void {
  process.on('unhandledRejection', (err) => {
    if (databaseUnavailable(err)) {
      log(`database unavailable (an unhandled rejection, ignored): ${String((err as Error)?.message ?? err)}`);
      return;
    }
    throw err;
  });
  process.on('uncaughtException', (err) => {
    if (databaseUnavailable(err)) {
      log(`database unavailable (an uncaught error, ignored): ${err.message}`);
      return;
    }
    console.error(err);
    process.exit(1);
  });
}
