/** A tiny HTTP client with a cookie jar: one per signed-in person in a test. */
export type ApiResponse<T = any> = { status: number; body: T; headers: Headers }

export class ApiClient {
  private cookies = new Map<string, string>()

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = {
      method,
      headers: {
        origin: this.baseUrl,
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      redirect: 'manual',
    }
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
    const res = await fetch(this.baseUrl + path, init)
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let parsed: unknown = text
    if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text)
    return { status: res.status, body: parsed as T, headers: res.headers }
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path)
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers)
  }
  patch<T = any>(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers)
  }
  put<T = any>(path: string, body: string, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, { 'content-type': 'text/markdown', ...headers })
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path)
  }

  /** Signs up (which also signs in) and returns the new user. */
  async signUp(name: string, email: string, password = 'password1234') {
    const res = await this.post('/_agent-native/auth/sign-up/email', { name, email, password })
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.user as { id: string; email: string; name: string }
  }

  async signIn(email: string, password = 'password1234') {
    const res = await this.post('/_agent-native/auth/sign-in/email', { email, password })
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.user as { id: string; email: string }
  }
}
