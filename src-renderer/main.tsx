import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prepareMarkdownWhenIdle } from './markdown/Markdown';
import { startApp } from './state/startup';
import { useAppStore } from './state/store';
import { effectiveTheme } from './state/settings-slice';
import { applyTheme, storedThemePreference, systemPrefersDark } from './theme/theme';
import { connectToHost } from './transport/connect';
import './styles/base.css';
import './styles/layout.css';
import './styles/messages.css';
import './styles/markdown.css';
import './styles/highlight.css';
import './styles/dialog.css';
import './styles/tools.css';
import './styles/attachments.css';

const initialTheme = { themePreference: storedThemePreference(), systemPrefersDark: systemPrefersDark() };
useAppStore.setState(initialTheme);
applyTheme(effectiveTheme(initialTheme));

startApp(connectToHost());

const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element.');
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

prepareMarkdownWhenIdle();
