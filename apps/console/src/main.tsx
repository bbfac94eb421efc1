import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AdminApiError } from './api/admin-api.error';
import { createConsoleRouter } from './app/router';
import './ui/console.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a network blip might.
      retry: (failures, error) => !(error instanceof AdminApiError && error.status < 500) && failures < 2,
      staleTime: 10_000,
      refetchOnWindowFocus: false,
    },
  },
});

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createConsoleRouter()} />
    </QueryClientProvider>
  </StrictMode>,
);
