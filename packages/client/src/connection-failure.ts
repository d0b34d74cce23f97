// Why a request got no HTTP response, read from the error the fetch threw (Node's fetch puts the system error's
// `code` in `cause`; browsers say nothing more than "Failed to fetch").

export type ConnectionFailure = 'connection_refused' | 'dns' | 'timeout' | 'connection_reset' | 'tls' | 'network';

const byCode: Record<string, ConnectionFailure> = {
  ECONNREFUSED: 'connection_refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
};

/** What each failure means, in the words of the error's message. */
export const failureDescriptions: Record<ConnectionFailure, string> = {
  connection_refused: 'connection refused (is the server running at that address?)',
  dns: 'host name not found (DNS)',
  timeout: 'timed out',
  connection_reset: 'connection reset by the server',
  tls: 'TLS handshake failed',
  network: 'network error',
};

/** The failure named by the first `code` along the error's `cause` chain. */
export function connectionFailureOf(error: unknown): ConnectionFailure {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (byCode[code]) return byCode[code];
      if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return 'tls';
    }
    if ((current as { name?: unknown }).name === 'TimeoutError') return 'timeout';
    current = (current as { cause?: unknown }).cause;
  }
  return 'network';
}
