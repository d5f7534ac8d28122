import { createPaymentHistories } from './histories';
import { createPaymentNotifications } from './notifications';
import { createPaymentOperator } from './operator';
import { createPaymentOrders } from './orders';
import { paymentContext, type PaymentDeps } from './context';

export type { PaymentDeps, PaymentOptions } from './context';
export type { SubmitInput } from './orders';
export { purchaseMethodOf } from './returns';

/**
 * Top-up (issue 10): the brand's amounts and methods, orders (pending → paid | failed | cancelled |
 * expired), crediting once whatever the provider does, the payment, bill and SMS histories, and the
 * operator's view of orders.
 */
export function createPaymentService(deps: PaymentDeps) {
  const ctx = paymentContext(deps);
  const { settle, ...notifications } = createPaymentNotifications(ctx);
  return {
    provider: deps.provider,
    ...createPaymentOrders(ctx),
    ...notifications,
    ...createPaymentHistories(ctx),
    ...createPaymentOperator(ctx, settle),
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
