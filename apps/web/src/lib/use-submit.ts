import { useCallback, useState } from 'react';

/**
 * One request sent from a form, with its pending and error state: the part of react-query's `useMutation` that
 * the sign-in and register screens use. Those screens are a visitor's first load, which does without react-query.
 */
export function useSubmit<Input, Output>(
  send: (input: Input) => Promise<Output>,
  onSuccess: (output: Output) => void,
) {
  const [state, setState] = useState<{ isPending: boolean; error: unknown }>({
    isPending: false,
    error: null,
  });
  const mutate = useCallback(
    async (input: Input) => {
      setState({ isPending: true, error: null });
      try {
        onSuccess(await send(input));
        setState({ isPending: false, error: null });
      } catch (error) {
        setState({ isPending: false, error });
      }
    },
    [send, onSuccess],
  );
  return { mutate, isPending: state.isPending, isError: state.error !== null, error: state.error };
}
