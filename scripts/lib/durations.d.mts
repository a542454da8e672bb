export const DURATIONS_FILE: string;
export function readDurations(): Record<string, Record<string, number>>;
export function byDuration(runner: string, files: string[]): string[];
