import { count } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import {
  comboComponents,
  productCategories,
  productOptionChoices,
  productOptionGroups,
  products,
} from '../../db/schema/index.ts';

/** Size: Small / Medium +1.00 / Large +2.00 (in minor units, as every price of the demo). */
const SIZES = [
  { name: 'Small', priceDeltaCents: 0 },
  { name: 'Medium', priceDeltaCents: 100 },
  { name: 'Large', priceDeltaCents: 200 },
];

interface DemoProduct {
  name: string;
  description: string;
  priceCents: number;
  stock?: number;
  ageRestricted?: boolean;
  options?: { name: string; required: boolean; choices: { name: string; priceDeltaCents: number }[] }[];
}

/** A cinema's menu (DESIGN §7.2): popcorn in sizes, drinks, nachos, a combo, an age-restricted beer, and one item nearly sold out. */
export const DEMO_MENU: { category: string; products: DemoProduct[] }[] = [
  {
    category: 'Popcorn',
    products: [
      {
        name: 'Popcorn',
        description: 'Popped here every hour',
        priceCents: 450,
        options: [
          { name: 'Size', required: true, choices: SIZES },
          {
            name: 'Flavour',
            required: true,
            choices: [
              { name: 'Salted', priceDeltaCents: 0 },
              { name: 'Sweet', priceDeltaCents: 0 },
            ],
          },
        ],
      },
    ],
  },
  {
    category: 'Drinks',
    products: [
      {
        name: 'Cola',
        description: 'With ice',
        priceCents: 350,
        options: [{ name: 'Size', required: true, choices: SIZES }],
      },
      { name: 'Still water', description: '500 ml bottle', priceCents: 250, stock: 120 },
      {
        name: 'Craft beer',
        description: 'Local pale ale, 330 ml. Over 18s only: ID is checked when it is handed over.',
        priceCents: 600,
        stock: 48,
        ageRestricted: true,
      },
    ],
  },
  {
    category: 'Snacks',
    products: [
      { name: 'Nachos', description: 'With cheese sauce', priceCents: 550, stock: 40 },
      { name: 'Chocolate bar', description: 'Milk chocolate with hazelnuts', priceCents: 200, stock: 3 },
    ],
  },
];

/** On an empty menu: the demo menu and its combo (popcorn, a cola and nachos for less). */
export async function seedDemoMenu(tx: Tx): Promise<number> {
  const [existing] = await tx.select({ n: count() }).from(products);
  if (existing!.n > 0) return 0;
  const ids = new Map<string, string>();
  let made = 0;
  for (const [position, entry] of [...DEMO_MENU, { category: 'Combos', products: [] }].entries()) {
    const [category] = await tx
      .insert(productCategories)
      .values({ name: entry.category, position })
      .returning({ id: productCategories.id });
    for (const [i, p] of entry.products.entries()) {
      const [row] = await tx
        .insert(products)
        .values({
          categoryId: category!.id,
          name: p.name,
          description: p.description,
          priceCents: p.priceCents,
          stock: p.stock ?? null,
          ageRestricted: p.ageRestricted ?? false,
          position: i,
        })
        .returning({ id: products.id });
      ids.set(p.name, row!.id);
      made++;
      for (const [g, group] of (p.options ?? []).entries()) {
        const [groupRow] = await tx
          .insert(productOptionGroups)
          .values({ productId: row!.id, name: group.name, required: group.required, position: g })
          .returning({ id: productOptionGroups.id });
        await tx
          .insert(productOptionChoices)
          .values(group.choices.map((c, position) => ({ groupId: groupRow!.id, ...c, position })));
      }
    }
    if (entry.category === 'Combos') {
      const [combo] = await tx
        .insert(products)
        .values({
          categoryId: category!.id,
          name: 'Movie night combo',
          description: 'Popcorn, a cola and nachos',
          priceCents: 1150,
          isCombo: true,
        })
        .returning({ id: products.id });
      await tx.insert(comboComponents).values([
        { comboId: combo!.id, productId: ids.get('Popcorn')!, quantity: 1 },
        { comboId: combo!.id, productId: ids.get('Cola')!, quantity: 1 },
        { comboId: combo!.id, productId: ids.get('Nachos')!, quantity: 1 },
      ]);
      made++;
    }
  }
  return made;
}
