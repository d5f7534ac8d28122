import type { ReactNode } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { SearchHit } from '@numa/contract';
import { Loading, Spinner } from '../../../components/Spinner';
import { currentLang } from '../../../lib/i18n';
import { queryKeys } from '../../../lib/queryKeys';
import { searchMessages } from '../api/chats';
import { useContactName } from '../extensions';
import { dateLabel } from '../logic/dates';
import { formatFullNumber } from '../logic/number';
import { useChatsUi } from '../state/ui';
import { Avatar } from './Avatar';
import { useNow } from './useNow';
import './search.css';

/** A snippet with its matched words in <mark>. */
function Snippet({ hit }: { hit: SearchHit }) {
  const parts: ReactNode[] = [];
  let at = 0;
  hit.marks.forEach(([from, to], i) => {
    if (from > at) parts.push(hit.snippet.slice(at, from));
    parts.push(<mark key={i}>{hit.snippet.slice(from, to)}</mark>);
    at = to;
  });
  if (at < hit.snippet.length) parts.push(hit.snippet.slice(at));
  return <span className="search-hit-snippet">{parts}</span>;
}

function Hit({ hit, now, showOwn }: { hit: SearchHit; now: number; showOwn: boolean }) {
  const { t } = useTranslation();
  const name = useContactName(hit.otherFullNumber);
  const title = name ?? formatFullNumber(hit.otherFullNumber);
  const openMessage = useChatsUi((s) => s.openMessage);
  const key = `${hit.ownFullNumber}-${hit.otherFullNumber}`;
  return (
    <li className="search-hit-wrap">
      <Button
        className="chat-row search-hit"
        data-sms-id={hit.smsId}
        onPress={() => openMessage({ key, smsId: hit.smsId, date: hit.date })}
      >
        <Avatar name={name} number={hit.otherFullNumber} />
        <span className="chat-row-body">
          <span className="chat-row-top">
            <span className="chat-row-title">{title}</span>
            <span className="chat-row-time">
              {dateLabel(hit.date, now, currentLang(), { yesterday: t('chats.time.yesterday') })}
            </span>
          </span>
          <span className="search-hit-text">
            {hit.direction === 'out' && <span className="muted">{t('chats.list.you')}</span>}
            <Snippet hit={hit} />
          </span>
          {showOwn && (
            <span className="chat-row-own">
              {t('chats.list.via', { number: formatFullNumber(hit.ownFullNumber) })}
            </span>
          )}
        </span>
      </Button>
    </li>
  );
}

/**
 * Message search results (issue 22 §1), in place of the chat list while the search box holds text:
 * newest first, a page at a time ("More results"), each opening its conversation at the message.
 * How many were found is announced politely.
 */
export function SearchResults({ q, showOwn }: { q: string; showOwn: boolean }) {
  const { t } = useTranslation();
  const now = useNow();
  const query = useInfiniteQuery({
    queryKey: queryKeys.chatSearch(q),
    queryFn: ({ pageParam }) => searchMessages(q, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 10_000,
  });
  const hits = query.data?.pages.flatMap((p) => p.results) ?? [];
  const more = query.hasNextPage;

  let status = '';
  if (query.isSuccess)
    status = hits.length
      ? t(more ? 'messaging.search.foundMore' : 'messaging.search.found', { count: hits.length })
      : t('messaging.search.none', { q });

  return (
    <section className="search-results" aria-label={t('messaging.search.results')}>
      <p className="search-status muted" role="status">
        {status}
      </p>
      {query.isPending ? (
        <Loading label={t('messaging.search.searching')} />
      ) : query.isError && !hits.length ? (
        <div className="error-state" role="alert">
          <p>{t('messaging.search.failed')}</p>
          <Button className="button" onPress={() => void query.refetch()}>
            {t('app.retry')}
          </Button>
        </div>
      ) : (
        <div className="search-scroll">
          <ul className="search-list" aria-label={t('messaging.search.results')}>
            {hits.map((h) => (
              <Hit
                key={`${h.ownFullNumber}-${h.otherFullNumber}-${h.smsId}`}
                hit={h}
                now={now}
                showOwn={showOwn}
              />
            ))}
          </ul>
          {more && (
            <div className="search-more">
              <Button
                className="button"
                isDisabled={query.isFetchingNextPage}
                onPress={() => void query.fetchNextPage()}
              >
                {query.isFetchingNextPage && <Spinner size={14} />}
                {t('messaging.search.more')}
              </Button>
            </div>
          )}
          {query.isFetchNextPageError && (
            <p className="muted" role="alert">
              {t('messaging.search.failed')}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
