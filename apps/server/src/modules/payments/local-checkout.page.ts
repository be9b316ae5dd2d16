import { createHash } from 'node:crypto';
import { feePer, formatMoney } from '@cinema/contract';
import type { CheckoutSummary } from './local-checkout.service.ts';
import { localeOf, seatText, textsIn, type Language } from '../../i18n.ts';

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

const utc = (language: Language) =>
  new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const timeIn = (language: Language) => (d: Date) =>
  `<time data-local datetime="${d.toISOString()}">${utc(language).format(d)} UTC</time>`;

function layout(title: string, content: string, language: Language = 'en'): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="test" role="note">${escapeHtml(textsIn(language)('checkout.banner'))}</p>
<div class="body">
${content}
</div>
</main>
<script>${SCRIPT}</script>
</body>
</html>`;
}

const SEAT_TYPES = new Set(['PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION']);

/** " · Child · sofa": the ticket type and a seat type other than standard, after the seat's name. */
function lineDetails(item: CheckoutSummary['items'][number], language: Language): string {
  const seatType =
    item.seatType && SEAT_TYPES.has(item.seatType)
      ? textsIn(language)(`checkout.seatTypes.${item.seatType}`)
      : null;
  const parts = [item.ticketType, seatType].filter(Boolean);
  return parts.map((p) => ` · ${escapeHtml(p!)}`).join('');
}

export type PageNotice = 'declined' | 'expired' | 'cancelled' | 'superseded' | 'paid';

// The notice's text is checkout.notices.<notice> in the catalogue.
const noticeKinds: Record<PageNotice, 'bad' | 'info'> = {
  declined: 'bad',
  expired: 'info',
  cancelled: 'info',
  superseded: 'info',
  paid: 'info',
};

/** The local provider's hosted checkout page for one session. */
/** Where a link to one of the web app's pages goes (it may live on another origin: CLIENT_URL). */
export type ClientPage = (path: string) => string;

export function renderLocalCheckoutPage(
  summary: CheckoutSummary,
  notice: PageNotice | undefined,
  page: ClientPage,
): string {
  const { language } = summary;
  const t = textsIn(language);
  const time = timeIn(language);
  const money = (cents: number) =>
    formatMoney(cents, { currency: summary.currency.toUpperCase(), locale: localeOf(language) });
  const shows = new Map<string, CheckoutSummary['items']>();
  for (const item of summary.items) {
    const key = `${item.movie}\u0000${item.auditorium}\u0000${item.startsAt.toISOString()}`;
    shows.set(key, [...(shows.get(key) ?? []), item]);
  }
  const showBlocks = [...shows.values()]
    .map((items) => {
      const first = items[0]!;
      return `<dl>
<dt>${escapeHtml(t('checkout.movie'))}</dt><dd>${escapeHtml(first.movie)}</dd>
<dt>${escapeHtml(t('checkout.hall'))}</dt><dd>${escapeHtml(first.auditorium)}</dd>
<dt>${escapeHtml(t('checkout.starts'))}</dt><dd>${time(first.startsAt)}</dd>
</dl>
<ul aria-label="${escapeHtml(t('checkout.seats'))}">
${items.map((i) => `<li><span>${escapeHtml(seatText(i, language, 'lineItem'))}${lineDetails(i, language)}</span><span>${money(i.priceCents)}</span></li>`).join('\n')}
</ul>`;
    })
    .join('\n');
  const feeBlock =
    summary.fees.length === 0
      ? ''
      : `<ul aria-label="${escapeHtml(t('fees.perTicket', { count: 1 }))}">
${summary.fees.map((f) => `<li><span>${escapeHtml(t(feePer(f.description) === 'ORDER' ? 'fees.perOrder' : 'fees.perTicket', { count: f.quantity }))}</span><span>${money(f.priceCents)}</span></li>`).join('\n')}
</ul>`;
  // Food and drink, then gift cards bought: every line of the order, as the provider's own page would list them.
  const productBlock =
    summary.products.length === 0
      ? ''
      : `<ul aria-label="${escapeHtml(t('checkout.products'))}">
${summary.products.map((p) => `<li><span>${escapeHtml(p.quantity > 1 ? `${p.quantity} × ${p.description}` : p.description)}</span><span>${money(p.priceCents)}</span></li>`).join('\n')}
</ul>`;
  const giftBlock =
    summary.gifts.length === 0
      ? ''
      : `<ul aria-label="${escapeHtml(t('checkout.giftCardsBought'))}">
${summary.gifts.map((g) => `<li><span>${escapeHtml(`${t('giftCards.line')}${g.recipientEmail ? ` — ${g.recipientEmail}` : ''}`)}</span><span>${money(g.priceCents)}</span></li>`).join('\n')}
</ul>`;

  const payable = summary.status === 'OPEN' && summary.expiresAt.getTime() > Date.now();
  // A decline is news only while the checkout can still be paid (Back to it after paying shows what is true now).
  const shown: PageNotice | undefined =
    (notice === 'declined' && !payable ? undefined : notice) ??
    (summary.status === 'OPEN'
      ? payable
        ? undefined
        : 'expired'
      : summary.status === 'CANCELLED' || summary.status === 'EXPIRED' || summary.status === 'SUPERSEDED'
        ? (summary.status.toLowerCase() as PageNotice)
        : 'paid');
  const alert = shown
    ? `<p class="alert ${noticeKinds[shown]}" role="${shown === 'declined' ? 'alert' : 'status'}">${escapeHtml(t(`checkout.notices.${shown}`))}</p>`
    : '';
  const base = `/api/pay/local/${summary.id}`;

  const actions = payable
    ? `<p class="card">${escapeHtml(t('checkout.testCard'))}</p>
<div class="actions">
<form method="post" action="${base}/pay"><button type="submit" class="pay">${escapeHtml(t('checkout.pay'))}</button></form>
<form method="post" action="${base}/decline"><button type="submit" class="decline">${escapeHtml(t('checkout.decline'))}</button></form>
<form method="post" action="${base}/cancel" class="cancel-form"><button type="submit" class="link">${escapeHtml(t('checkout.cancel'))}</button></form>
</div>
<p class="muted">${escapeHtml(t('checkout.heldUntil'))} ${time(summary.expiresAt)}.</p>`
    : shown === 'paid'
      ? `<p><a href="${page(`/checkout/success?session_id=${summary.id}`)}">${escapeHtml(t('checkout.seeTickets'))}</a></p>`
      : `<p><a href="${page('/movies')}">${escapeHtml(t('checkout.backToMovies'))}</a></p>`;

  return layout(
    t('checkout.pageTitle'),
    `<h1>${escapeHtml(t('checkout.heading'))}</h1>
<p class="sub">${escapeHtml(t('checkout.sub'))}</p>
${alert}
${showBlocks}
${productBlock}
${feeBlock}
${giftBlock}
${
  summary.discountCents > 0
    ? `<p class="discount"><span>${escapeHtml(t('checkout.discount'))}${summary.promoCode ? ` (${escapeHtml(summary.promoCode)})` : ''}</span><span>−${money(summary.discountCents)}</span></p>`
    : ''
}
${
  summary.giftCardCents > 0
    ? `<p class="discount"><span>${escapeHtml(t('checkout.giftCards'))}</span><span>−${money(summary.giftCardCents)}</span></p>`
    : ''
}
<p class="total"><span>${escapeHtml(t('checkout.total'))}</span><span>${money(summary.amountCents - summary.giftCardCents)}</span></p>
${summary.ref ? `<p class="muted">${escapeHtml(t('checkout.order', { ref: summary.ref }))}</p>` : ''}
${actions}`,
    language,
  );
}

/** The page for a session id we do not know. */
export function renderMissingCheckoutPage(page: ClientPage, language: Language): string {
  const t = textsIn(language);
  return layout(
    t('checkout.missing.pageTitle'),
    `<h1>${escapeHtml(t('checkout.missing.heading'))}</h1>
<p class="alert info" role="status">${escapeHtml(t('checkout.missing.text'))}</p>
<p><a href="${page('/movies')}">${escapeHtml(t('checkout.backToMovies'))}</a></p>`,
    language,
  );
}

/** The page while the database is briefly away (a 503): nothing was charged, and the same address works again. */
export function renderUnavailableCheckoutPage(retryAfterSeconds: number, language: Language): string {
  const t = textsIn(language);
  return layout(
    t('checkout.unavailable.pageTitle'),
    `<h1>${escapeHtml(t('checkout.unavailable.heading'))}</h1>
<p class="alert info" role="status">${escapeHtml(t('checkout.unavailable.text', { seconds: retryAfterSeconds }))}</p>`,
    language,
  );
}
