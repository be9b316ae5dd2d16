import { z } from 'zod';
import { DisplayTextSchema, IdSchema, OneLineTextSchema } from './common.ts';
import { ErrorSchema } from './errors.ts';

// DESIGN §7.2: concessions (food and drink). The menu staff keep at /admin/concessions, the menu customers order
// from, and the products of a checkout.

/** A price in the currency's minor unit; a menu price is never negative and never absurd. */
const PriceCentsSchema = z.number().int('A price is a whole number of minor units').min(0).max(10_000_000);

export const ProductChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceDeltaCents: z.number().int(),
});
export const ProductOptionGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Exactly one choice must be made (Size); otherwise at most one (Flavour, when optional). */
  required: z.boolean(),
  choices: z.array(ProductChoiceSchema),
});
export type ProductOptionGroup = z.infer<typeof ProductOptionGroupSchema>;

export const ProductSchema = z.object({
  id: z.string(),
  categoryId: z.string(),
  category: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  active: z.boolean(),
  /** Alcohol and the like: staff check ID ("Check ID") when handing it over. */
  ageRestricted: z.boolean(),
  imageUrl: z.string().nullable(),
  /** What is left to sell (null: not counted). A combo's is what its components allow. */
  stock: z.number().int().nullable(),
  /** Sold out now (stock 0). */
  soldOut: z.boolean(),
  /** Only a few left (5 or fewer). */
  lowStock: z.boolean(),
  options: z.array(ProductOptionGroupSchema),
  /** A combo: its components (each product and how many). */
  components: z
    .array(z.object({ productId: z.string(), name: z.string(), quantity: z.number().int() }))
    .nullable(),
  position: z.number().int(),
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
});
export type ProductCategory = z.infer<typeof ProductCategorySchema>;

/** `GET /api/menu` (and `/api/products`): the active menu by category, with what is in stock. */
export const MenuSchema = z.object({
  currency: z.string(),
  categories: z.array(ProductCategorySchema.extend({ products: z.array(ProductSchema) })),
});
export type Menu = z.infer<typeof MenuSchema>;

/** `GET /api/admin/concessions`: every category and product, inactive ones too. */
export const AdminMenuSchema = z.object({
  categories: z.array(ProductCategorySchema),
  products: z.array(ProductSchema),
});
export type AdminMenu = z.infer<typeof AdminMenuSchema>;

export const CategoryBodySchema = z.object({
  name: DisplayTextSchema('Name', 60),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type CategoryBody = z.infer<typeof CategoryBodySchema>;

const ChoiceBodySchema = z.object({
  name: DisplayTextSchema('Choice', 60),
  priceDeltaCents: z.number().int().min(-10_000_000).max(10_000_000).default(0),
});
const OptionGroupBodySchema = z.object({
  group: DisplayTextSchema('Option group', 60),
  required: z.boolean().default(false),
  choices: z.array(ChoiceBodySchema).min(1, 'An option group needs at least one choice').max(20),
});

/**
 * `POST /api/admin/products` and `PUT /api/admin/products/{id}` (DESIGN §7.2). A combo gives `components` (and no
 * stock: it is taken from them); a product its own optional `stock`. `category` is a category's name (made if new) or
 * `categoryId` one by id.
 */
export const ProductBodySchema = z
  .object({
    name: DisplayTextSchema('Name', 80),
    description: OneLineTextSchema('Description', 300).nullable().optional(),
    category: DisplayTextSchema('Category', 60).optional(),
    categoryId: IdSchema.optional(),
    priceCents: PriceCentsSchema,
    active: z.boolean().default(true),
    ageRestricted: z.boolean().default(false),
    imageUrl: z
      .url({ message: 'The image must be a web address', protocol: /^https?$/ })
      .max(500)
      .nullable()
      .optional(),
    stock: z.number().int().min(0, 'Stock cannot be negative').max(1_000_000).nullable().optional(),
    options: z.array(OptionGroupBodySchema).max(10).optional(),
    components: z
      .array(z.object({ productId: IdSchema, quantity: z.number().int().min(1).max(20) }))
      .min(1, 'A combo needs at least one component')
      .max(10)
      .optional(),
    position: z.number().int().min(0).max(10_000).optional(),
  })
  .refine((b) => b.category !== undefined || b.categoryId !== undefined, {
    message: 'Choose a category',
    path: ['category'],
  })
  .refine((b) => !(b.components && b.stock != null), {
    message: 'A combo takes its stock from its components',
    path: ['stock'],
  });
export type ProductBody = z.input<typeof ProductBodySchema>;

/** `POST /api/admin/products/{id}/stock`: set what is left, or add to it (a delivery). */
export const StockBodySchema = z
  .object({
    stock: z.number().int().min(0).max(1_000_000).nullable().optional(),
    add: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  })
  .refine((b) => (b.stock !== undefined) !== (b.add !== undefined), { message: 'Give either stock or add' });

/** A product asked for at checkout: how many, and the option choices (by id) for each of them. */
export const ProductOrderSchema = z.object({
  productId: IdSchema,
  quantity: z.number().int().min(1, 'At least one').max(50, 'At most 50 of one item'),
  options: z.array(IdSchema).max(20).optional(),
});
export type ProductOrder = z.infer<typeof ProductOrderSchema>;

/** Collect at the counter, or to the seat of a ticket of the same order at a time in the showtime's window. */
export const FulfilmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('PICKUP') }),
  z.object({ kind: z.literal('SEAT'), bookingId: IdSchema, at: z.iso.datetime({ offset: true }) }),
]);
export type Fulfilment = z.infer<typeof FulfilmentSchema>;

/** A product line of a quote or an order, as the customer reads it. */
export const ProductLineSchema = z.object({
  /** An order's line (staff refund it by this id); absent in a quote. */
  lineId: z.string().optional(),
  productId: z.string().nullable(),
  name: z.string(),
  /** The chosen options' names ("Large", "Sweet"). */
  options: z.array(z.string()),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  discountCents: z.number().int(),
  priceCents: z.number().int(),
  ageRestricted: z.boolean(),
  status: z.enum(['pending', 'confirmed', 'refunded', 'released']),
  /** Its tax rate (basis points and percent) and the tax in priceCents (DESIGN §7.4). */
  taxRateBp: z.number().int(),
  taxRate: z.number(),
  taxCents: z.number().int(),
});
export type ProductLine = z.infer<typeof ProductLineSchema>;

export const ConcessionStatusSchema = z.enum(['preparing', 'ready', 'collected', 'delivered']);
export type ConcessionStatus = z.infer<typeof ConcessionStatusSchema>;

/** An order's food and drink: how it reaches the customer, and where the kitchen has it. */
export const OrderConcessionsSchema = z.object({
  fulfilment: z.enum(['PICKUP', 'SEAT']),
  /** SEAT: when and where to bring it. */
  deliverAt: z.string().nullable(),
  seat: z
    .object({
      auditorium: z.string(),
      row: z.number().int(),
      number: z.number().int(),
      rowLabel: z.string().optional(),
    })
    .nullable(),
  status: ConcessionStatusSchema.nullable(),
});
export type OrderConcessions = z.infer<typeof OrderConcessionsSchema>;

// The kitchen (DESIGN §7.2): /admin/kitchen prepares the paid orders with food and drink and hands them over.

/** An item as the kitchen prepares it. */
export const KitchenItemSchema = z.object({
  name: z.string(),
  options: z.array(z.string()),
  quantity: z.number().int(),
  /** Alcohol and the like: "Check ID" when handing it over. */
  ageRestricted: z.boolean(),
});
export type KitchenItem = z.infer<typeof KitchenItemSchema>;

/** A paid order with food and drink, as the kitchen screen shows it. */
export const KitchenOrderSchema = z.object({
  ref: z.string(),
  status: ConcessionStatusSchema,
  paidAt: z.string(),
  fulfilment: z.enum(['PICKUP', 'SEAT']),
  /** SEAT: when to bring it, and where (hall, row, seat). */
  deliverAt: z.string().nullable(),
  seat: OrderConcessionsSchema.shape.seat,
  /** The film of the order's tickets (the seat it is brought to), when it has any. */
  movie: z.string().nullable(),
  startsAt: z.string().nullable(),
  customerName: z.string().nullable(),
  /** The items still to hand over (refunded ones left out). */
  items: z.array(KitchenItemSchema),
  /** Some item is age-restricted: staff check ID. */
  checkId: z.boolean(),
  handedOverAt: z.string().nullable(),
  /** The staff member who handed it over (their email). */
  handedOverBy: z.string().nullable(),
});
export type KitchenOrder = z.infer<typeof KitchenOrderSchema>;

/**
 * `GET /api/admin/kitchen`: every order still to prepare or ready (seat deliveries by when they are due, orders to
 * collect by when they were paid), and those handed over in the last few hours, newest first.
 */
export const KitchenSchema = z.object({
  orders: z.array(KitchenOrderSchema),
});
export type Kitchen = z.infer<typeof KitchenSchema>;

/** `POST /api/admin/concession-orders/{ref}/status`: ready, or handed over (collected at the bar, or delivered). */
export const ConcessionStatusBodySchema = z.object({
  status: z.enum(['ready', 'collected', 'delivered']),
});
export type ConcessionStatusBody = z.infer<typeof ConcessionStatusBodySchema>;

/** A refused hand-over: when and by whom it was handed over already. */
export const KitchenErrorSchema = ErrorSchema.extend({
  handedOverAt: z.string().optional(),
  handedOverBy: z.string().nullable().optional(),
});

/** `join_kitchen` (a staff member's session token) and the server's answer. */
export const JoinKitchenSchema = z.object({ token: z.string().min(1).max(200) });
export type JoinKitchen = z.infer<typeof JoinKitchenSchema>;
/** `kitchen_update`: an order of the kitchen changed (paid, ready, handed over, refunded): read the screen again. */
export const KitchenUpdateSchema = z.object({ ref: z.string() });
export type KitchenUpdate = z.infer<typeof KitchenUpdateSchema>;
