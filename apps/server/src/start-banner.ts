/**
 * The start banner's first lines: the address to open. It is APP_URL, not the address the server
 * listens on: passkeys are bound to APP_URL's host name (the WebAuthn RP ID), and an IP address such as
 * 127.0.0.1 can never be one, so a page opened there cannot add or use a passkey.
 */
export function addressLines(appUrl: string, listening: string): string[] {
  const lines = [`Footprint is running at ${appUrl}`];
  let listenHost = listening;
  let sameHost = false;
  try {
    const listen = new URL(listening);
    listenHost = listen.host;
    sameHost = listen.host === new URL(appUrl).host;
  } catch {}
  if (!sameHost) {
    lines.push(`  (listening on ${listenHost}; open ${appUrl} itself: passkeys work only there)`);
  }
  return lines;
}
