import { Suspense, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/Spinner';
import { lazyNamed } from '../../../components/lazy';
import type * as ConversationModule from './Conversation';
import type * as NewChatModule from './NewChat';
import type * as SearchResultsModule from './SearchResults';

// The right-hand pane is a chunk of its own: the list shows without the conversation's view, composer,
// emoji data, sanitizer, number rules of the To field and country picker, fetched when a chat or New
// SMS is first opened (docs/architecture.md, "Code splitting").
const ConversationPane = lazyNamed(() => import('./Conversation'), 'Conversation');
const NewChatPane = lazyNamed(() => import('./NewChat'), 'NewChat');
// the message search's results: fetched when the user first searches (issue 22 §1)
const SearchResultsPane = lazyNamed(() => import('./SearchResults'), 'SearchResults');

function PaneLoading() {
  const { t } = useTranslation();
  return <Loading label={t('app.loading')} />;
}

export function Conversation(props: ComponentProps<typeof ConversationModule.Conversation>) {
  return (
    <Suspense fallback={<PaneLoading />}>
      <ConversationPane {...props} />
    </Suspense>
  );
}

export function NewChat(props: ComponentProps<typeof NewChatModule.NewChat>) {
  return (
    <Suspense fallback={<PaneLoading />}>
      <NewChatPane {...props} />
    </Suspense>
  );
}

export function SearchResults(props: ComponentProps<typeof SearchResultsModule.SearchResults>) {
  return (
    <Suspense fallback={<PaneLoading />}>
      <SearchResultsPane {...props} />
    </Suspense>
  );
}
