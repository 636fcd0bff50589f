/** Entry of the web viewer bundle (built by web/build.ts into /app/assets/app.js). */
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './styles.css';
import { App } from './App';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
