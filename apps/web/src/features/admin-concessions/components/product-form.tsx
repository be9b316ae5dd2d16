import { useId, useState, type FormEvent } from 'react';
import { minorToText, toMinor } from '@cinema/contract/constants';
import type { Product, ProductBody } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { errorText } from '../../../lib/api-client';
import { currencySymbol } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useCinemaCurrency } from '../../../lib/settings';
import { useSaveProduct } from '../api/menu';

interface ChoiceDraft {
  name: string;
  delta: string;
}
interface GroupDraft {
  group: string;
  required: boolean;
  choices: ChoiceDraft[];
}
interface ComponentDraft {
  productId: string;
  quantity: string;
}

/** Add or change a product (or a combo): its price in the cinema's currency, options with their price deltas. */
export function ProductForm({
  product,
  products,
  categories,
  onDone,
}: {
  product?: Product | undefined;
  products: Product[];
  categories: string[];
  onDone: (notice: string) => void;
}) {
  const { t } = useTranslation('admin');
  const currency = useCinemaCurrency();
  const save = useSaveProduct();
  const id = useId();
  const [name, setName] = useState(product?.name ?? '');
  const [category, setCategory] = useState(product?.category ?? '');
  const [price, setPrice] = useState(product ? minorToText(product.priceCents, currency) : '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [imageUrl, setImageUrl] = useState(product?.imageUrl ?? '');
  const [stock, setStock] = useState(
    product?.stock != null && !product.components ? String(product.stock) : '',
  );
  const [active, setActive] = useState(product?.active ?? true);
  const [ageRestricted, setAgeRestricted] = useState(product?.ageRestricted ?? false);
  const [isCombo, setIsCombo] = useState(product ? product.components !== null : false);
  const [groups, setGroups] = useState<GroupDraft[]>(
    product?.options.map((g) => ({
      group: g.name,
      required: g.required,
      choices: g.choices.map((c) => ({ name: c.name, delta: minorToText(c.priceDeltaCents, currency) })),
    })) ?? [],
  );
  const [components, setComponents] = useState<ComponentDraft[]>(
    product?.components?.map((c) => ({ productId: c.productId, quantity: String(c.quantity) })) ?? [],
  );
  const [error, setError] = useState<string | null>(null);
  const parts = products.filter((p) => p.components === null && p.id !== product?.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const priceCents = toMinor(price, currency);
    if (priceCents === null || priceCents < 0) return setError(t('concessions.badPrice'));
    const options = groups.map((g) => ({
      group: g.group.trim(),
      required: g.required,
      choices: g.choices.map((c) => ({
        name: c.name.trim(),
        priceDeltaCents: toMinor(c.delta || '0', currency),
      })),
    }));
    if (options.some((g) => g.choices.some((c) => c.priceDeltaCents === null)))
      return setError(t('concessions.badPrice'));
    const body: ProductBody = {
      name: name.trim(),
      category: category.trim(),
      priceCents,
      description: description.trim() || null,
      imageUrl: imageUrl.trim() || null,
      active,
      ageRestricted,
      options: options as ProductBody['options'],
      ...(isCombo
        ? {
            components: components.map((c) => ({
              productId: c.productId,
              quantity: Number(c.quantity) || 1,
            })),
          }
        : { stock: stock.trim() === '' ? null : Number(stock) }),
    };
    save.mutate(
      { ...(product && { id: product.id }), body },
      {
        onSuccess: (saved) =>
          onDone(
            product
              ? t('concessions.saved', { name: saved.name })
              : t('concessions.added', { name: saved.name }),
          ),
        onError: (err) => setError(errorText(err, t('concessions.saveFailed'))),
      },
    );
  };

  const setGroup = (i: number, change: Partial<GroupDraft>) =>
    setGroups((all) => all.map((g, j) => (j === i ? { ...g, ...change } : g)));
  const setChoice = (i: number, k: number, change: Partial<ChoiceDraft>) =>
    setGroup(i, { choices: groups[i]!.choices.map((c, j) => (j === k ? { ...c, ...change } : c)) });

  return (
    <form className="card space-y-4" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {product ? t('concessions.editTitle', { name: product.name }) : t('concessions.newTitle')}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">{t('common.name')}</span>
          <input
            className="input"
            required
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('concessions.category')}</span>
          <input
            className="input"
            required
            maxLength={60}
            list={`${id}-categories`}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          />
          <datalist id={`${id}-categories`}>
            {categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span className="field-label">{t('concessions.price', { symbol: currencySymbol(currency) })}</span>
          <input
            className="input"
            required
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
          />
        </label>
        {!isCombo && (
          <label className="field">
            <span className="field-label">{t('concessions.stock')}</span>
            <input
              className="input"
              type="number"
              min={0}
              value={stock}
              onChange={(e) => setStock(e.target.value)}
              aria-describedby={`${id}-stock-hint`}
            />
            <span id={`${id}-stock-hint`} className="text-xs text-slate-300">
              {t('concessions.stockHint')}
            </span>
          </label>
        )}
        <label className="field sm:col-span-2">
          <span className="field-label">{t('concessions.description')}</span>
          <input
            className="input"
            maxLength={300}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <label className="field sm:col-span-2">
          <span className="field-label">{t('concessions.imageUrl')}</span>
          <input
            className="input"
            type="url"
            maxLength={500}
            value={imageUrl}
            onChange={(e) => setImageUrl(e.target.value)}
          />
        </label>
      </div>
      <div className="flex flex-wrap gap-6">
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
          />
          {t('concessions.active')}
        </label>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={ageRestricted}
            onChange={(e) => setAgeRestricted(e.target.checked)}
          />
          {t('concessions.ageRestricted')}
        </label>
        {!product && (
          <label className="flex min-h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={isCombo}
              onChange={(e) => setIsCombo(e.target.checked)}
            />
            {t('concessions.isCombo')}
          </label>
        )}
      </div>

      {isCombo && (
        <fieldset className="space-y-2">
          <legend className="field-label">{t('concessions.components')}</legend>
          {components.map((c, i) => (
            <div key={i} className="flex flex-wrap items-end gap-2">
              <label className="field min-w-40 flex-1">
                <span className="field-label">{t('concessions.componentN', { n: i + 1 })}</span>
                <select
                  className="input"
                  value={c.productId}
                  onChange={(e) =>
                    setComponents((all) =>
                      all.map((x, j) => (j === i ? { ...x, productId: e.target.value } : x)),
                    )
                  }
                >
                  <option value="">{t('concessions.chooseProduct')}</option>
                  {parts.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field w-24">
                <span className="field-label">{t('concessions.quantity')}</span>
                <input
                  className="input"
                  type="number"
                  min={1}
                  max={20}
                  value={c.quantity}
                  onChange={(e) =>
                    setComponents((all) =>
                      all.map((x, j) => (j === i ? { ...x, quantity: e.target.value } : x)),
                    )
                  }
                />
              </label>
              <button
                type="button"
                className="btn-secondary"
                onClick={() => setComponents((all) => all.filter((_, j) => j !== i))}
              >
                {t('concessions.removeComponent', { n: i + 1 })}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn-secondary"
            onClick={() => setComponents((all) => [...all, { productId: '', quantity: '1' }])}
          >
            {t('concessions.addComponent')}
          </button>
        </fieldset>
      )}

      <fieldset className="space-y-3">
        <legend className="field-label">{t('concessions.options')}</legend>
        {groups.map((g, i) => (
          <fieldset key={i} className="space-y-2 rounded border border-line/60 p-3">
            <legend className="px-1 text-sm text-slate-200">{t('concessions.groupN', { n: i + 1 })}</legend>
            <div className="flex flex-wrap items-end gap-2">
              <label className="field min-w-40 flex-1">
                <span className="field-label">{t('concessions.groupName')}</span>
                <input
                  className="input"
                  required
                  maxLength={60}
                  value={g.group}
                  onChange={(e) => setGroup(i, { group: e.target.value })}
                />
              </label>
              <label className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={g.required}
                  onChange={(e) => setGroup(i, { required: e.target.checked })}
                />
                {t('concessions.required')}
              </label>
              <button
                type="button"
                className="btn-secondary"
                onClick={() => setGroups((all) => all.filter((_, j) => j !== i))}
              >
                {t('concessions.removeGroup', { n: i + 1 })}
              </button>
            </div>
            {g.choices.map((c, k) => (
              <div key={k} className="flex flex-wrap items-end gap-2">
                <label className="field min-w-32 flex-1">
                  <span className="field-label">{t('concessions.choiceN', { n: k + 1 })}</span>
                  <input
                    className="input"
                    required
                    maxLength={60}
                    value={c.name}
                    onChange={(e) => setChoice(i, k, { name: e.target.value })}
                  />
                </label>
                <label className="field w-32">
                  <span className="field-label">
                    {t('concessions.delta', { symbol: currencySymbol(currency) })}
                  </span>
                  <input
                    className="input"
                    inputMode="decimal"
                    value={c.delta}
                    onChange={(e) => setChoice(i, k, { delta: e.target.value })}
                  />
                </label>
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={g.choices.length === 1}
                  onClick={() => setGroup(i, { choices: g.choices.filter((_, j) => j !== k) })}
                >
                  {t('concessions.removeChoice', { n: k + 1 })}
                </button>
              </div>
            ))}
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setGroup(i, { choices: [...g.choices, { name: '', delta: '0' }] })}
            >
              {t('concessions.addChoice')}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn-secondary"
          onClick={() =>
            setGroups((all) => [...all, { group: '', required: false, choices: [{ name: '', delta: '0' }] }])
          }
        >
          {t('concessions.addGroup')}
        </button>
      </fieldset>

      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {product ? t('concessions.save') : t('concessions.add')}
        </button>
        {product && (
          <button type="button" className="btn-secondary" onClick={() => onDone('')}>
            {t('concessions.cancelEdit')}
          </button>
        )}
      </div>
      <FormMessages error={error} />
    </form>
  );
}
