/**
 * Every side effect the runtime and widgets need comes in through this one environment
 * object (STYLE.md §5): widgets never call the HTTP client, `message` or the router directly.
 * The console shell builds the real one (src/console/runtime-env.ts); tests build a fake.
 */
export interface RequestOptions {
  /** do not show the server `msg` as an error toast (spec section 8 opt-out) */
  silent?: boolean;
  timeout?: number;
  signal?: AbortSignal;
}

export interface TransferOptions extends RequestOptions {
  onProgress?(percent: number): void;
  fileName?: string;
}

export interface HttpPort {
  /** `path` is relative to `/api/admin/`, e.g. `role/list`; resolves with the envelope's `data` */
  get<T = unknown>(path: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  download(path: string, body?: unknown, opts?: TransferOptions): Promise<void>;
  upload<T = unknown>(path: string, form: FormData, opts?: TransferOptions): Promise<T>;
  /**
   * GET a file the console serves under `/api/admin/` (an uploaded image) as a Blob, with the
   * session's header (an `<img src>` cannot send it); an envelope instead of a file rejects.
   */
  blob?(path: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<Blob>;
}

/** The texts a loaded schema names, from the shell (the console loads its modules' texts per page). */
export interface SchemaTexts {
  /** true when every text the schema's keys name is loaded in the language on screen */
  ready(loaded: { schema: unknown; enums?: unknown; fields?: unknown }): boolean;
  load(loaded: { schema: unknown; enums?: unknown; fields?: unknown }): Promise<void>;
}

export interface RuntimeEnv {
  http: HttpPort;
  notify: { success(text: string): void; error(text: string): void; info(text: string): void };
  /** resolves true when the person confirms */
  confirm(text: string, opts?: { title?: string; danger?: boolean }): Promise<boolean>;
  navigate(to: string, opts?: { replace?: boolean }): void;
  /** translate an i18n key (with interpolation) */
  t(key: string, vars?: Record<string, unknown>): string;
  /** does the signed-in account hold this flattened `module.permission_key`? (super admin: always) */
  can(permissionKey: string): boolean;
  locale: 'zh-CN' | 'en-US';
  /** show the schema inspector (explicit dev setting, not NODE_ENV) */
  devMode: boolean;
  /** the shell's texts of schemas: a schema loader made for this env hands a schema out once they are in */
  schemaTexts?: SchemaTexts;
}
