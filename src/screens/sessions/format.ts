import dayjs from 'dayjs';

export const fmtTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');
export const fmtClock = (iso: string) => dayjs(iso).format('HH:mm:ss');
export const fmtOffset = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
