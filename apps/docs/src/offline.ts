// The pages must work with no network and ask nothing of the host beyond themselves: Redoc's scripts are
// inlined (--inlineBundle), the attribution logo (its only remote resource) becomes an inline image with the
// same words, and an inline icon keeps browsers from asking the host for /favicon.ico.
const logos: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svgText(84, 'Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svgText(16, 'R'),
};

function svgText(width: number, text: string): string {
  return svgDataUri(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16">` +
      `<text x="0" y="13" font-family="sans-serif" font-size="13" font-weight="600" fill="#0044d4">${text}</text></svg>`,
  );
}

function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** A page icon that needs no request: `{ }` on a rounded square. */
export const faviconLink = `<link rel="icon" href="${svgDataUri(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0044d4"/>' +
    '<text x="16" y="22" text-anchor="middle" font-family="monospace" font-size="16" font-weight="700" fill="#fff">{ }</text></svg>',
)}">`;

/** Addresses of Redoc's CDN left in a page. */
export function remoteResources(html: string): string[] {
  return [...new Set(html.match(/https:\/\/cdn\.redoc\.ly\/[^"'`\s)]+/g) ?? [])];
}

export function makeOffline(html: string): string {
  let out = html;
  for (const [url, replacement] of Object.entries(logos)) out = out.replaceAll(url, replacement);
  const left = remoteResources(out);
  if (left.length > 0) throw new Error(`The rendered page still loads remote resources: ${left.join(', ')}`);
  if (!out.includes('rel="icon"')) {
    if (!out.includes('</head>')) throw new Error('The rendered page has no </head> to add its icon to');
    out = out.replace('</head>', `${faviconLink}\n</head>`);
  }
  return out;
}
