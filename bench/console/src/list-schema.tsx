/**
 * Ours: the 100 × 12 list page rendered by the schema runtime (RuntimeProvider + SchemaPage,
 * as the console renders every schema route). Opened with `?page_size=10000&total=10000` it is
 * the virtual-table figure (page sizes at or above the schema's virtualThreshold).
 */
import { ConfigProvider } from 'antd';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SchemaPage } from '../../../src/widgets/schema-page/SchemaPage.js';
import { RuntimeProvider } from '../../../src/widgets/schema-page/RuntimeProvider.js';
import { LIST_ROUTE, listSchema } from './bench-schemas.js';
import { benchEnv } from './fake-env.js';
import { fail, renderStart, waitForCount } from './measure.js';

const pageSize = Number(new URLSearchParams(location.search).get('page_size') ?? listSchema.pagination.pageSize);
const virtual = pageSize >= listSchema.pagination.virtualThreshold;

try {
  localStorage.clear();
  const root = createRoot(document.getElementById('root')!);
  renderStart();
  root.render(
    <ConfigProvider>
      <BrowserRouter>
        <RuntimeProvider env={benchEnv}>
          <SchemaPage path={LIST_ROUTE} params={{}} />
        </RuntimeProvider>
      </BrowserRouter>
    </ConfigProvider>,
  );
  void (virtual ? waitForCount('.ant-table-tbody-virtual .ant-table-row', 10) : waitForCount('tr.ant-table-row', pageSize));
} catch (err) {
  fail(err);
}
