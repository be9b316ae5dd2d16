import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { AdminMenu, Menu, Product, ProductBody, ProductCategory } from '@cinema/contract';
import {
  isStillReferenced,
  PG_UNIQUE_VIOLATION,
  pgErrorCode,
  runTogether,
  type Db,
  type Queryable,
  type Tx,
} from '../../db/database.ts';
import {
  comboComponents,
  orderLines,
  productCategories,
  productOptionChoices,
  productOptionGroups,
  products,
} from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';

/** At or below this many left, the menu says "Only N left". */
export const LOW_STOCK = 5;

/**
 * The menu as it is now (DESIGN §7.2): every category and product with its options and a combo's components, in
 * position order. A combo's stock is what its counted components allow (null when none is counted). Small: a cinema's
 * menu is tens of items, read in five statements.
 */
export async function loadMenu(q: Queryable): Promise<AdminMenu> {
  const [categories, rows, groups, choices, components] = await runTogether(q, [
    () =>
      q
        .select()
        .from(productCategories)
        .orderBy(asc(productCategories.position), asc(productCategories.name)),
    () => q.select().from(products).orderBy(asc(products.position), asc(products.name)),
    () => q.select().from(productOptionGroups).orderBy(asc(productOptionGroups.position)),
    () => q.select().from(productOptionChoices).orderBy(asc(productOptionChoices.position)),
    () => q.select().from(comboComponents),
  ] as const);
  const byId = new Map(rows.map((p) => [p.id, p]));
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const stockOf = (p: (typeof rows)[number]): number | null => {
    if (!p.isCombo) return p.stock;
    let least: number | null = null;
    for (const c of components.filter((c) => c.comboId === p.id)) {
      const part = byId.get(c.productId);
      if (!part || part.stock === null) continue;
      const allows = Math.floor(part.stock / c.quantity);
      least = least === null ? allows : Math.min(least, allows);
    }
    return least;
  };
  const present = (p: (typeof rows)[number]): Product => {
    const stock = stockOf(p);
    return {
      id: p.id,
      categoryId: p.categoryId,
      category: categoryName.get(p.categoryId) ?? '',
      name: p.name,
      description: p.description,
      priceCents: p.priceCents,
      active: p.active,
      ageRestricted: p.ageRestricted,
      imageUrl: p.imageUrl,
      stock,
      soldOut: stock === 0,
      lowStock: stock !== null && stock > 0 && stock <= LOW_STOCK,
      options: groups
        .filter((g) => g.productId === p.id)
        .map((g) => ({
          id: g.id,
          name: g.name,
          required: g.required,
          choices: choices
            .filter((c) => c.groupId === g.id)
            .map((c) => ({ id: c.id, name: c.name, priceDeltaCents: c.priceDeltaCents })),
        })),
      components: p.isCombo
        ? components
            .filter((c) => c.comboId === p.id)
            .map((c) => ({
              productId: c.productId,
              name: byId.get(c.productId)?.name ?? '',
              quantity: c.quantity,
            }))
        : null,
      position: p.position,
    };
  };
  return {
    categories: categories.map((c) => ({ id: c.id, name: c.name, position: c.position })),
    products: rows.map(present),
  };
}

/** `GET /api/menu`: the active products by category (empty categories left out), sold-out ones marked. */
export async function customerMenu(q: Queryable, currency: string): Promise<Menu> {
  const menu = await loadMenu(q);
  return {
    currency,
    categories: menu.categories
      .map((c) => ({ ...c, products: menu.products.filter((p) => p.active && p.categoryId === c.id) }))
      .filter((c) => c.products.length > 0),
  };
}

async function productOf(q: Queryable, id: string): Promise<Product> {
  const found = (await loadMenu(q)).products.find((p) => p.id === id);
  if (!found) throw notFound('Product not found');
  return found;
}

/** The category named (made if new) or given by id. */
async function categoryFor(tx: Tx, body: ProductBody): Promise<string> {
  if (body.categoryId) {
    const [found] = await tx
      .select({ id: productCategories.id })
      .from(productCategories)
      .where(eq(productCategories.id, body.categoryId));
    if (!found) throw badRequest('No such category');
    return found.id;
  }
  const name = body.category!;
  const [found] = await tx
    .select({ id: productCategories.id })
    .from(productCategories)
    .where(sql`lower(${productCategories.name}) = lower(${name})`);
  if (found) return found.id;
  const [{ position } = { position: 0 }] = await tx
    .select({ position: sql<number>`coalesce(max(${productCategories.position}) + 1, 0)::int` })
    .from(productCategories);
  const [made] = await tx
    .insert(productCategories)
    .values({ name, position: Number(position) })
    .returning({ id: productCategories.id });
  return made!.id;
}

/** A combo's components: existing products, none of them a combo or the combo itself. */
async function checkComponents(tx: Tx, comboId: string | null, components: { productId: string }[]) {
  const ids = [...new Set(components.map((c) => c.productId.toLowerCase()))];
  if (ids.length !== components.length) throw badRequest('Each component may be listed once');
  if (comboId && ids.includes(comboId)) throw badRequest('A combo cannot contain itself');
  const found = await tx
    .select({ id: products.id, isCombo: products.isCombo })
    .from(products)
    .where(inArray(products.id, ids));
  if (found.length !== ids.length) throw badRequest('A component is not on the menu');
  if (found.some((p) => p.isCombo)) throw badRequest('A combo cannot contain another combo');
}

/** Writes a product's options and components anew (its option groups and choices are replaced as a whole). */
async function writeParts(tx: Tx, productId: string, body: ProductBody) {
  if (body.options !== undefined) {
    await tx.delete(productOptionGroups).where(eq(productOptionGroups.productId, productId));
    for (const [position, group] of body.options.entries()) {
      const [row] = await tx
        .insert(productOptionGroups)
        .values({ productId, name: group.group, required: group.required ?? false, position })
        .returning({ id: productOptionGroups.id });
      await tx.insert(productOptionChoices).values(
        group.choices.map((choice, i) => ({
          groupId: row!.id,
          name: choice.name,
          priceDeltaCents: choice.priceDeltaCents ?? 0,
          position: i,
        })),
      );
    }
  }
  if (body.components !== undefined) {
    await checkComponents(tx, productId, body.components);
    await tx.delete(comboComponents).where(eq(comboComponents.comboId, productId));
    await tx
      .insert(comboComponents)
      .values(
        body.components.map((c) => ({ comboId: productId, productId: c.productId, quantity: c.quantity })),
      );
  }
}

/** `POST /api/admin/products`: a product or (with components) a combo, audited. */
export async function createProduct(db: Db, actor: Actor, body: ProductBody): Promise<Product> {
  return db.transaction(async (tx) => {
    const categoryId = await categoryFor(tx, body);
    const [row] = await tx
      .insert(products)
      .values({
        categoryId,
        name: body.name,
        description: body.description ?? null,
        priceCents: body.priceCents,
        active: body.active ?? true,
        ageRestricted: body.ageRestricted ?? false,
        imageUrl: body.imageUrl ?? null,
        stock: body.components ? null : (body.stock ?? null),
        isCombo: body.components !== undefined,
        position: body.position ?? 0,
      })
      .returning({ id: products.id });
    await writeParts(tx, row!.id, body);
    const made = await productOf(tx, row!.id);
    await recordAudit(tx, actor, {
      action: 'product.create',
      subjectType: 'product',
      subjectId: made.id,
      after: made,
    });
    return made;
  });
}

/** `PUT /api/admin/products/{id}`: every field as given (options and components replaced when given), audited. */
export async function updateProduct(db: Db, actor: Actor, id: string, body: ProductBody): Promise<Product> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: products.id, isCombo: products.isCombo })
      .from(products)
      .where(eq(products.id, id))
      .for('update');
    if (!locked) throw notFound('Product not found');
    if (locked.isCombo && body.stock != null) throw badRequest('A combo takes its stock from its components');
    if (!locked.isCombo && body.components)
      throw badRequest('A product cannot become a combo: add a new one');
    const before = await productOf(tx, id);
    const categoryId = await categoryFor(tx, body);
    await tx
      .update(products)
      .set({
        categoryId,
        name: body.name,
        description: body.description ?? null,
        priceCents: body.priceCents,
        active: body.active ?? true,
        ageRestricted: body.ageRestricted ?? false,
        imageUrl: body.imageUrl ?? null,
        ...(!locked.isCombo && body.stock !== undefined && { stock: body.stock }),
        ...(body.position !== undefined && { position: body.position }),
        updatedAt: sql`now()`,
      })
      .where(eq(products.id, id));
    await writeParts(tx, id, body);
    const after = await productOf(tx, id);
    await recordAudit(tx, actor, {
      action: 'product.update',
      subjectType: 'product',
      subjectId: id,
      before,
      after,
    });
    return after;
  });
}

/**
 * `POST /api/admin/products/{id}/stock`: sets what is left (`stock`, null: not counted) or adds a delivery (`add`),
 * atomically against sales (never below zero: 409), audited.
 */
export async function changeStock(
  db: Db,
  actor: Actor,
  id: string,
  body: { stock?: number | null; add?: number },
): Promise<Product> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ stock: products.stock, isCombo: products.isCombo })
      .from(products)
      .where(eq(products.id, id))
      .for('update');
    if (!before) throw notFound('Product not found');
    if (before.isCombo) throw badRequest('A combo takes its stock from its components');
    let stock: number | null;
    if (body.add !== undefined) {
      if (before.stock === null) throw badRequest('This product has no stock count: set one first');
      stock = before.stock + body.add;
      if (stock < 0) throw conflict('The stock cannot go below zero');
    } else stock = body.stock ?? null;
    await tx
      .update(products)
      .set({ stock, updatedAt: sql`now()` })
      .where(eq(products.id, id));
    await recordAudit(tx, actor, {
      action: 'product.stock',
      subjectType: 'product',
      subjectId: id,
      before: { stock: before.stock },
      after: { stock, ...(body.add !== undefined && { added: body.add }) },
    });
    return productOf(tx, id);
  });
}

/** `DELETE /api/admin/products/{id}`: only a product nobody bought and no combo contains (409 in_use: deactivate it). */
export async function deleteProduct(db: Db, actor: Actor, id: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const before = await productOf(tx, id);
      const [{ sold } = { sold: 0 }] = await tx
        .select({ sold: sql<number>`count(*)::int` })
        .from(orderLines)
        .where(eq(orderLines.productId, id));
      if (Number(sold) > 0) throw conflict('This product has been sold: deactivate it instead', 'in_use');
      await tx.delete(products).where(eq(products.id, id));
      await recordAudit(tx, actor, {
        action: 'product.delete',
        subjectType: 'product',
        subjectId: id,
        before,
      });
    });
  } catch (err) {
    if (isStillReferenced(err))
      throw conflict('A combo contains this product: remove it there first', 'in_use');
    throw err;
  }
}

/** `POST` / `PUT /api/admin/product-categories`: a category's name and place on the menu, audited. */
export async function saveCategory(
  db: Db,
  actor: Actor,
  id: string | null,
  body: { name: string; position?: number | undefined },
): Promise<ProductCategory> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = id
        ? await tx.select().from(productCategories).where(eq(productCategories.id, id))
        : [];
      if (id && !before) throw notFound('Category not found');
      const [row] = id
        ? await tx
            .update(productCategories)
            .set({ name: body.name, ...(body.position !== undefined && { position: body.position }) })
            .where(eq(productCategories.id, id))
            .returning()
        : await tx
            .insert(productCategories)
            .values({ name: body.name, position: body.position ?? 0 })
            .returning();
      const after = { id: row!.id, name: row!.name, position: row!.position };
      await recordAudit(tx, actor, {
        action: id ? 'product_category.update' : 'product_category.create',
        subjectType: 'product_category',
        subjectId: row!.id,
        before: before ?? null,
        after,
      });
      return after;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw conflict(`A category "${body.name}" already exists`);
    throw err;
  }
}

/** `DELETE /api/admin/product-categories/{id}`: an empty category only (409 in_use). */
export async function deleteCategory(db: Db, actor: Actor, id: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const [gone] = await tx.delete(productCategories).where(eq(productCategories.id, id)).returning();
      if (!gone) throw notFound('Category not found');
      await recordAudit(tx, actor, {
        action: 'product_category.delete',
        subjectType: 'product_category',
        subjectId: id,
        before: gone,
      });
    });
  } catch (err) {
    if (isStillReferenced(err)) throw conflict('This category still has products', 'in_use');
    throw err;
  }
}
