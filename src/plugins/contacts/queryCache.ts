import { QueryClient } from '@tanstack/react-query';
import { Session, type ServiceLookup } from '../../kernel';

/*
 * The contacts screen's query cache. It lives in the screen's lazy chunk, so that the query library
 * is not on the first screen (issue 17), and belongs to one user: another user signing in on this
 * page starts from an empty cache.
 */
let cache: { userId: number; client: QueryClient } | null = null;

export function contactQueries(services: ServiceLookup): QueryClient {
  const { userId } = services.get(Session);
  if (cache?.userId !== userId) {
    cache?.client.clear();
    cache = { userId, client: new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 30_000, refetchOnWindowFocus: false } } }) };
  }
  return cache.client;
}
