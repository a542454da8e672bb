import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp, prepareConsole } from './console/App.js';
import './console/global.css';

void prepareConsole().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  ),
);
