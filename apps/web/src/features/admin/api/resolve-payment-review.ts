import type { PaymentReviewDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { paymentReviewsKey } from './get-payment-reviews';

/** POST /api/manage/payment-review/resolve `{id}`: the admin has dealt with an unmatched payment. */
export function resolvePaymentReview(id: number): Promise<Envelope<PaymentReviewDto>> {
  return api.post<PaymentReviewDto>('/manage/payment-review/resolve', { id });
}

export function useResolvePaymentReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolvePaymentReview,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentReviewsKey }),
  });
}
