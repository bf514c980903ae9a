import type { PaymentReviewDto, Page } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ReviewQuery {
  page: number;
  pageSize: number;
  status: PaymentReviewDto['status'];
}

export const paymentReviewsKey = ['payment-reviews'] as const;

/** GET /api/manage/payment-review?page&pageSize&status: payments that arrived but matched no open order. */
export async function getPaymentReviews(query: ReviewQuery): Promise<Page<PaymentReviewDto>> {
  return (await api.get<Page<PaymentReviewDto>>('/manage/payment-review', { ...query })).data;
}

export const paymentReviewsQueryOptions = (query: ReviewQuery) =>
  queryOptions({ queryKey: [...paymentReviewsKey, query], queryFn: () => getPaymentReviews(query), placeholderData: keepPreviousData, staleTime: 0 });

export function usePaymentReviews(query: ReviewQuery) {
  return useQuery(paymentReviewsQueryOptions(query));
}
