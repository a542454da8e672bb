export const ROOT: string;
export const BUILD_DIR: string;
export const SERVER_ENTRY: string;
export const WORKER_ENTRY: string;
export function staleInputs(): string[];
export function buildServer(): Promise<number>;
export function ensureServerBuilt(opts?: { quiet?: boolean }): Promise<boolean>;
