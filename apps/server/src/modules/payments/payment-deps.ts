import type { Deps } from '../../deps.ts';
import type { PaymentProviders } from './providers/registry.ts';

/** What the payment services use: the services' usual dependencies and the payment providers. */
export interface PaymentDeps extends Deps {
  providers: PaymentProviders;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
