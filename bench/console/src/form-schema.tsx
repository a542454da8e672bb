/** Ours: the 300-field form rendered by the schema runtime (RuntimeProvider + SchemaPage on the form's route). */
import { ConfigProvider } from 'antd';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SchemaPage } from '../../../src/widgets/schema-page/SchemaPage.js';
import { RuntimeProvider } from '../../../src/widgets/schema-page/RuntimeProvider.js';
import { FORM_ROUTE } from './bench-schemas.js';
import { benchEnv } from './fake-env.js';
import { FIELD_COUNT } from './form-fields.js';
import { fail, renderStart, waitForCount, watchKeys } from './measure.js';

try {
  localStorage.clear();
  watchKeys();
  const root = createRoot(document.getElementById('root')!);
  renderStart();
  root.render(
    <ConfigProvider>
      <BrowserRouter>
        <RuntimeProvider env={benchEnv}>
          <SchemaPage path={FORM_ROUTE} params={{}} />
        </RuntimeProvider>
      </BrowserRouter>
    </ConfigProvider>,
  );
  void waitForCount('.ant-formily-item', FIELD_COUNT);
} catch (err) {
  fail(err);
}
