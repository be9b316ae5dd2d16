import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Product } from '@cinema/contract';
import type { SignedIn } from './helpers.ts';

/** Popcorn in three sizes, the size required (Small 4.50, Medium +1.00, Large +2.00). */
export const POPCORN = {
  name: 'Popcorn',
  category: 'Popcorn',
  priceCents: 450,
  options: [
    {
      group: 'Size',
      required: true,
      choices: [
        { name: 'Small', priceDeltaCents: 0 },
        { name: 'Medium', priceDeltaCents: 100 },
        { name: 'Large', priceDeltaCents: 200 },
      ],
    },
  ],
};

/** Adds a product to the menu through the API (201 expected). */
export async function addProduct(app: FastifyInstance, admin: SignedIn, body: object): Promise<Product> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/products',
    headers: admin.headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Product;
}

/** The id of a product's option choice by group and name ("Size", "Large"). */
export const choiceId = (product: Product, group: string, name: string) =>
  product.options.find((g) => g.name === group)!.choices.find((c) => c.name === name)!.id;
