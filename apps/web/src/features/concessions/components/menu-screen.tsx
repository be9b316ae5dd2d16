import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutBody, CheckoutResponse, ProductOrder, Quote } from '@cinema/contract';
import { SnackLines } from '../../../components/menu/basket-snacks';
import { MenuChooser } from '../../../components/menu/menu-chooser';
import { OrderTaxes } from '../../../components/order/order-taxes';
import { api, errorText } from '../../../lib/api-client';
import { useFormatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { usePageHeading } from '../../../lib/use-page-heading';

/**
 * /menu: food and drink on their own (DESIGN §7.2), collected at the counter; priced by the server's quote and paid
 * through the same checkout as tickets.
 */
export function MenuScreen() {
  const { t } = useTranslation('common');
  const heading = usePageHeading(t('concessions.menuTitle'));
  const formatMoney = useFormatMoney();
  const [chosen, setChosen] = useState<{ item: ProductOrder; text: string }[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const body = useMemo(
    (): CheckoutBody => ({
      bookingIds: [],
      products: chosen.map((c) => c.item),
      fulfilment: { kind: 'PICKUP' },
    }),
    [chosen],
  );
  const quote = useQuote(body);
  const checkout = useMutation({
    mutationFn: async () => {
      const { url } = await api<CheckoutResponse>('/pay/checkout', { method: 'POST', body: { ...body } });
      window.location.assign(url);
    },
  });

  return (
    <section className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <div className="card">
        <h1 ref={heading} tabIndex={-1} className="page-title outline-none">
          {t('concessions.menuTitle')}
        </h1>
        <p className="mb-4 text-sm text-slate-300">{t('concessions.menuIntro')}</p>
        <MenuChooser
          onAdd={(item, text) => {
            setChosen((all) => [...all, { item, text }]);
            setNotice(
              t('concessions.added', { item: item.quantity > 1 ? `${item.quantity} × ${text}` : text }),
            );
          }}
        />
      </div>
      <aside
        className="card sticky bottom-0 flex flex-col gap-3 self-start lg:top-4"
        aria-labelledby="menu-basket-title"
      >
        <h2 id="menu-basket-title" className="text-base font-semibold text-white">
          {t('concessions.basketTitle')}
        </h2>
        <p role="status" className="text-sm text-emerald-300">
          {notice}
        </p>
        {chosen.length === 0 && <p className="muted">{t('concessions.basketEmpty')}</p>}
        <SnackLines
          items={chosen.map((c) => ({ text: c.text, quantity: c.item.quantity }))}
          prices={quote.data?.products}
          onRemove={(i) => {
            setNotice(null);
            setChosen((all) => all.filter((_, j) => j !== i));
          }}
        />
        {quote.isError && (
          <p className="error" role="alert">
            {errorText(quote.error, t('basket.priceFailed'))}
          </p>
        )}
        {chosen.length > 0 && quote.data && (
          <>
            <p className="text-sm text-slate-300">{t('concessions.pickup')}</p>
            <p className="flex justify-between text-base font-semibold">
              <span>{t('order.total')}</span>
              <span className="text-gold tabular-nums" data-testid="menu-total">
                {formatMoney(quote.data.totalCents)}
              </span>
            </p>
            <OrderTaxes order={quote.data} currency={quote.data.currency} />
          </>
        )}
        {checkout.isError && (
          <p className="error" role="alert">
            {errorText(checkout.error, t('concessions.checkoutFailed'))}
          </p>
        )}
        <button
          type="button"
          className="btn-primary"
          disabled={chosen.length === 0 || quote.isError || checkout.isPending}
          onClick={() => checkout.mutate()}
        >
          {t('concessions.checkout')}
        </button>
      </aside>
    </section>
  );
}

/** POST /api/pay/quote for the items chosen (nothing asked while the basket is empty). */
const useQuote = (body: CheckoutBody) =>
  useQuery({
    queryKey: ['menu-quote', body],
    queryFn: ({ signal }) => api<Quote>('/pay/quote', { method: 'POST', body: { ...body }, signal }),
    placeholderData: keepPreviousData,
    enabled: (body.products?.length ?? 0) > 0,
    staleTime: 0,
    retry: false,
  });
