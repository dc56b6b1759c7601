import { render } from 'preact';
import { App } from './app.js';
import { keepFocusOnBusyControls } from './focus-keeper.js';
// One stylesheet for every page (the chart's too): CSS of a lazily loaded chunk would not be linked by itself.
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import './mirror/mirror.css';

keepFocusOnBusyControls();
render(<App />, document.getElementById('app')!);
