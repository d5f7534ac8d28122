import { useCallback, useRef } from 'react';
import { useMutation, type DefaultError, type UseMutationOptions } from '@tanstack/react-query';

/**
 * A mutation whose button moves money or a number (spec 001 §4: clicks are ignored while a request
 * is in flight). TanStack Query tells the component that a mutation is pending a tick later (its
 * notify manager batches on a timer), so a double click reaches `mutate` twice before the button is
 * disabled: the second request then fails (the number is already restored) and its error replaces
 * the result that happened. Here a ref set in the click itself drops every call until the first one
 * has settled (its own onSettled included), and `isPending` is true from the click on.
 */
export function useOneAtATime<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
) {
  const busy = useRef(false);
  const m = useMutation<TData, TError, TVariables, TContext>({
    ...options,
    onSettled: async (...args) => {
      try {
        await options.onSettled?.(...args);
      } finally {
        busy.current = false;
      }
    },
  });
  const { mutate: run } = m;
  const mutate = useCallback(
    (vars: TVariables) => {
      if (busy.current) return;
      busy.current = true;
      run(vars);
    },
    [run],
  );
  return { ...m, mutate, isPending: m.isPending || busy.current };
}
