import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  localCheckoutCsp,
  renderLocalCheckoutPage,
  renderMissingCheckoutPage,
  renderUnavailableCheckoutPage,
  type PageNotice,
} from './local-checkout.page.ts';
import { cancelLocalCheckout, getCheckoutSummary, payLocalCheckout } from './local-checkout.service.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { clientPage } from '../../config.ts';
import { isUnavailable, RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';

// Not validated as a UUID by the schema: a bad link gets the HTML "not found" page, not a JSON error.
const ParamsSchema = z.object({ id: z.string().max(100) });

function sendPage(reply: FastifyReply, status: number, html: string, csp: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', csp)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

/**
 * The local provider's hosted checkout page. Like a provider's hosted page it is reached by the session's
 * unguessable id (a random UUID), not by the customer's bearer token, which the browser does not send here.
 */
export const localCheckoutRoutes: FastifyPluginAsyncZod<{ deps: PaymentDeps }> = async (app, { deps }) => {
  // The page's forms post urlencoded bodies with nothing in them that we need.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
    done(null, {}),
  );

  // A customer on this page gets a page while the database is away, not the API's JSON; anything else goes on to
  // the API's error handler.
  app.setErrorHandler((err, request, reply) => {
    if (!isUnavailable(err)) throw err;
    app.outages.noted(err);
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return sendPage(reply, 503, renderUnavailableCheckoutPage(RETRY_AFTER_SECONDS, request.language), csp);
  });

  const page = (path: string) => clientPage(deps.config, path);
  // Pay and Cancel redirect to the web app, which may live on another origin (CLIENT_URL).
  const csp = localCheckoutCsp(
    deps.config.clientUrl === deps.config.publicUrl ? undefined : new URL(deps.config.clientUrl).origin,
  );
  const showPage = async (reply: FastifyReply, id: string, status = 200, notice?: PageNotice) => {
    const summary = await getCheckoutSummary(deps.db, id);
    if (!summary || summary.provider !== 'local')
      return sendPage(reply, 404, renderMissingCheckoutPage(page, reply.request.language), csp);
    return sendPage(reply, status, renderLocalCheckoutPage(summary, notice, page), csp);
  };

  const schema = (summary: string) => ({
    tags: ['payments'],
    summary,
    params: ParamsSchema,
    produces: ['text/html'],
  });

  // A declined card is answered with a 303 to the page (post/redirect/get), ?notice=declined: Back from a later
  // payment, Forward and reload never ask the browser to send the form again.
  app.get(
    '/pay/local/:id',
    {
      schema: {
        ...schema('Hosted test checkout page (local provider); ?notice=declined after a declined card'),
        querystring: z.object({ notice: z.string().max(20).optional() }),
      },
    },
    (request, reply) =>
      showPage(reply, request.params.id, 200, request.query.notice === 'declined' ? 'declined' : undefined),
  );
  const pageOf = (id: string, notice?: 'declined') =>
    `/api/pay/local/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ''}`;

  app.post(
    '/pay/local/:id/pay',
    { schema: schema('Pay a local test checkout: fulfils, then 303 to the success page') },
    async (request, reply) => {
      const { id } = request.params;
      const result = await payLocalCheckout(deps, id);
      if (result === 'paid') return reply.redirect(page(`/checkout/success?session_id=${id}`), 303);
      if (result === 'not_found') return showPage(reply, id);
      return showPage(reply, id, 409, result);
    },
  );

  app.post(
    '/pay/local/:id/decline',
    { schema: schema('Simulate a declined card: nothing changes; 303 to the page, which says so') },
    async (request, reply) => {
      const { id } = request.params;
      const summary = await getCheckoutSummary(deps.db, id);
      if (!summary || summary.provider !== 'local') return showPage(reply, id);
      const payable = summary.status === 'OPEN' && summary.expiresAt.getTime() > Date.now();
      return reply.redirect(pageOf(id, payable ? 'declined' : undefined), 303);
    },
  );

  // An old link to the cancel address only shows the page: a GET never changes anything.
  app.get(
    '/pay/local/:id/cancel',
    { schema: schema('The hosted test checkout page (an old Cancel link)') },
    (request, reply) => showPage(reply, request.params.id),
  );

  app.post(
    '/pay/local/:id/cancel',
    { schema: schema('Cancel a local test checkout: releases its holds, then 303 to the cancel page') },
    async (request, reply) => {
      const { id } = request.params;
      const result = await cancelLocalCheckout(deps, id);
      if (result === 'not_found') return showPage(reply, id);
      if (result === 'paid') return reply.redirect(page(`/checkout/success?session_id=${id}`), 303);
      return reply.redirect(page('/checkout/cancel'), 303);
    },
  );
};
