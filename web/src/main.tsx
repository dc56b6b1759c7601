import { render } from 'preact';
import { App } from './app.js';
import { keepFocusOnBusyControls } from './focus-keeper.js';
import './styles.css';

keepFocusOnBusyControls();
render(<App />, document.getElementById('app')!);
