/** Signs in to a running app the way the console does: token in `admin-token`, both session cookies sent back. */
export interface Session {
  token: string;
  headers: Record<string, string>;
}

export async function signIn(origin: string, email: string, password: string): Promise<Session> {
  const res = await fetch(`${origin}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { code: number; msg: string; data?: { user?: { token?: string } } };
  const token = body.data?.user?.token;
  if (body.code !== 10000 || !token) throw new Error(`sign-in as ${email} failed: ${res.status} ${JSON.stringify(body)}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { token, headers: { 'admin-token': token, cookie: cookies.join('; ') } };
}
