// What the tests' throwaway certificates are made with.

/** `openssl req` options for a new P-256 key: made in a millisecond, where an RSA-2048 key takes a third of a second. */
export const opensslNewKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] as const;
