import { createHash } from 'node:crypto';
import { formatMoney } from '@cinema/contract';
import { seatName } from './checkout.service.ts';
import type { CheckoutSummary } from './local-checkout.service.ts';

// The page is self-contained: inline CSS and one tiny inline script, both allowed by hash in its own CSP.
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: #eef0f4; color: #1a1d24; display: flex; align-items: flex-start;
  justify-content: center; padding: 32px 16px; }
main { width: 100%; max-width: 480px; background: #fff; border-radius: 16px; box-shadow: 0 8px 30px rgba(0,0,0,.12);
  overflow: hidden; }
.test { margin: 0; background: #fff4ce; color: #5c3d00; border-bottom: 1px solid #f0d58a; padding: 10px 20px; font-weight: 700;
  font-size: 14px; text-align: center; }
.body { padding: 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
.sub { color: #4a5060; margin: 0 0 20px; font-size: 14px; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 0 0 16px; font-size: 15px; }
dt { color: #4a5060; }
dd { margin: 0; font-weight: 600; }
ul { list-style: none; padding: 0; margin: 0 0 16px; border-top: 1px solid #e3e6ec; }
li { display: flex; justify-content: space-between; padding: 8px 0; border-bottom: 1px solid #e3e6ec; font-size: 15px; }
.discount { display: flex; justify-content: space-between; margin: 0 0 8px; color: #0f6e3a; font-weight: 600; }
.total { display: flex; justify-content: space-between; font-size: 18px; font-weight: 800; margin: 0 0 20px; }
.card { border: 1px dashed #b9bfcc; border-radius: 10px; padding: 10px 12px; font-size: 14px; color: #4a5060;
  margin: 0 0 20px; }
.actions { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
button { font: inherit; font-weight: 700; border-radius: 10px; padding: 12px 20px; cursor: pointer; border: 0; }
.pay { background: #0f6e3a; color: #fff; flex: 1 1 auto; }
.pay:hover { background: #0b5a2f; }
.decline { background: #fff; color: #8a1c1c; border: 1px solid #d8a3a3; }
.decline:hover { background: #fbeaea; }
a { color: #1d4fb8; font-weight: 600; }
.cancel-form { margin-left: auto; }
.link { background: none; color: #1d4fb8; font-weight: 600; text-decoration: underline; padding: 12px 4px; }
:focus-visible { outline: 3px solid #1d4fb8; outline-offset: 2px; }
.alert { border-radius: 10px; padding: 12px 14px; margin: 0 0 20px; font-size: 15px; }
.alert.bad { background: #fbeaea; color: #7a1515; border: 1px solid #e6b3b3; }
.alert.info { background: #e8f0fe; color: #183f86; border: 1px solid #b5c9f3; }
.muted { color: #4a5060; font-size: 13px; margin: 16px 0 0; }
`;

// Shows times in the customer's own zone; without scripts the UTC text stays.
const SCRIPT = `document.querySelectorAll('time[data-local]').forEach(function (t) {
  var d = new Date(t.getAttribute('datetime'));
  if (!isNaN(d.getTime())) t.textContent = d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
});`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's own Content-Security-Policy: nothing but its inline style and script; its forms post to this origin,
 * whose answer may redirect to the web app's origin (CLIENT_URL, when it is another): form-action covers redirects.
 */
export function localCheckoutCsp(clientOrigin?: string): string {
  return [
    "default-src 'none'",
    `style-src ${hash(STYLE)}`,
    `script-src ${hash(SCRIPT)}`,
    clientOrigin ? `form-action 'self' ${clientOrigin}` : "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const utc = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const time = (d: Date) => `<time data-local datetime="${d.toISOString()}">${utc.format(d)} UTC</time>`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="test" role="note">Test payment — no real card is charged</p>
<div class="body">
${content}
</div>
</main>
<script>${SCRIPT}</script>
</body>
</html>`;
}

const SEAT_TYPE_WORDS: Record<string, string> = {
  PREMIUM: 'premium',
  SOFA: 'sofa',
  WHEELCHAIR: 'wheelchair space',
  COMPANION: 'companion seat',
};

/** " · Child · sofa": the ticket type and a seat type other than standard, after the seat's name. */
function lineDetails(item: CheckoutSummary['items'][number]): string {
  const parts = [item.ticketType, item.seatType ? SEAT_TYPE_WORDS[item.seatType] : undefined].filter(Boolean);
  return parts.map((p) => ` · ${escapeHtml(p!)}`).join('');
}

export type PageNotice = 'declined' | 'expired' | 'cancelled' | 'superseded' | 'paid';

const notices: Record<PageNotice, { kind: 'bad' | 'info'; text: string }> = {
  declined: {
    kind: 'bad',
    text: 'Your card was declined (test). Nothing was charged. Your seats stay held until the time below: you can try again or cancel.',
  },
  expired: { kind: 'info', text: 'This checkout has expired and its seats were released.' },
  cancelled: { kind: 'info', text: 'This checkout was cancelled and its seats were released.' },
  superseded: {
    kind: 'info',
    text: 'This checkout was replaced by a newer one for the same seats. Nothing was charged here: please pay on the newest checkout page.',
  },
  paid: { kind: 'info', text: 'This checkout is already paid.' },
};

/** The local provider's hosted checkout page for one session. */
/** Where a link to one of the web app's pages goes (it may live on another origin: CLIENT_URL). */
export type ClientPage = (path: string) => string;

export function renderLocalCheckoutPage(
  summary: CheckoutSummary,
  notice: PageNotice | undefined,
  page: ClientPage,
): string {
  const shows = new Map<string, CheckoutSummary['items']>();
  for (const item of summary.items) {
    const key = `${item.movie}\u0000${item.auditorium}\u0000${item.startsAt.toISOString()}`;
    shows.set(key, [...(shows.get(key) ?? []), item]);
  }
  const showBlocks = [...shows.values()]
    .map((items) => {
      const first = items[0]!;
      return `<dl>
<dt>Movie</dt><dd>${escapeHtml(first.movie)}</dd>
<dt>Hall</dt><dd>${escapeHtml(first.auditorium)}</dd>
<dt>Starts</dt><dd>${time(first.startsAt)}</dd>
</dl>
<ul aria-label="Seats">
${items.map((i) => `<li><span>${seatName(i)}${lineDetails(i)}</span><span>${formatMoney(i.priceCents)}</span></li>`).join('\n')}
</ul>`;
    })
    .join('\n');

  const payable = summary.status === 'open' && summary.expiresAt.getTime() > Date.now();
  // A decline is news only while the checkout can still be paid (Back to it after paying shows what is true now).
  const shown: PageNotice | undefined =
    (notice === 'declined' && !payable ? undefined : notice) ??
    (summary.status === 'open'
      ? payable
        ? undefined
        : 'expired'
      : summary.status === 'cancelled' || summary.status === 'expired' || summary.status === 'superseded'
        ? summary.status
        : 'paid');
  const alert = shown
    ? `<p class="alert ${notices[shown].kind}" role="${shown === 'declined' ? 'alert' : 'status'}">${notices[shown].text}</p>`
    : '';
  const base = `/api/pay/local/${summary.id}`;

  const actions = payable
    ? `<p class="card">Test card •••• 4242 — use Pay to succeed or Decline to simulate a refused card.</p>
<div class="actions">
<form method="post" action="${base}/pay"><button type="submit" class="pay">Pay</button></form>
<form method="post" action="${base}/decline"><button type="submit" class="decline">Decline</button></form>
<form method="post" action="${base}/cancel" class="cancel-form"><button type="submit" class="link">Cancel</button></form>
</div>
<p class="muted">Your seats are held until ${time(summary.expiresAt)}.</p>`
    : shown === 'paid'
      ? `<p><a href="${page(`/checkout/success?session_id=${summary.id}`)}">See your tickets</a></p>`
      : `<p><a href="${page('/movies')}">Back to Movies</a></p>`;

  return layout(
    'Checkout — Cinema',
    `<h1>Pay for your tickets</h1>
<p class="sub">Cinema checkout</p>
${alert}
${showBlocks}
${
  summary.discountCents > 0
    ? `<p class="discount"><span>Discount${summary.promoCode ? ` (${escapeHtml(summary.promoCode)})` : ''}</span><span>−${formatMoney(summary.discountCents)}</span></p>`
    : ''
}
<p class="total"><span>Total</span><span>${formatMoney(summary.amountCents)}</span></p>
${summary.ref ? `<p class="muted">Order ${escapeHtml(summary.ref)}</p>` : ''}
${actions}`,
  );
}

/** The page for a session id we do not know. */
export function renderMissingCheckoutPage(page: ClientPage): string {
  return layout(
    'Checkout not found — Cinema',
    `<h1>Checkout not found</h1>
<p class="alert info" role="status">This payment link is not valid.</p>
<p><a href="${page('/movies')}">Back to Movies</a></p>`,
  );
}

/** The page while the database is briefly away (a 503): nothing was charged, and the same address works again. */
export function renderUnavailableCheckoutPage(retryAfterSeconds: number): string {
  return layout(
    'Checkout briefly unavailable — Cinema',
    `<h1>Checkout briefly unavailable</h1>
<p class="alert info" role="status">We cannot reach our records right now. Nothing was charged. Please reload this page in ${retryAfterSeconds} seconds: your seats stay held until the time shown on it.</p>`,
  );
}
