/** User menu: change password, my sessions and logout. */
import { DesktopOutlined, IdcardOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { http } from '../http/instance.js';
import { logout } from '../session/actions.js';
import { sessionStore } from '../session/store.js';
import { useConsoleUi } from '../services.js';

export function UserMenu() {
  const { t } = useTranslation();
  const { message } = useConsoleUi();
  const navigate = useNavigate();
  const user = sessionStore.use((s) => s.user);
  const onClick = async ({ key }: { key: string }) => {
    if (key === 'change-password') navigate('/change-password');
    if (key === 'my-sessions') navigate('/my-sessions');
    if (key === 'my-info') navigate('/my-info');
    if (key === 'logout') {
      await logout(http).catch(() => undefined);
      void message.success(t('shell.header.loggedOut'));
      navigate('/login', { replace: true });
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        onClick,
        items: [
          { key: 'my-info', icon: <IdcardOutlined />, label: <span data-testid="menu-my-info">{t('shell.header.myInfo')}</span> },
          { key: 'change-password', icon: <KeyOutlined />, label: <span data-testid="menu-change-password">{t('shell.header.changePassword')}</span> },
          { key: 'my-sessions', icon: <DesktopOutlined />, label: <span data-testid="menu-my-sessions">{t('shell.header.mySessions')}</span> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="menu-logout">{t('shell.header.logout')}</span> },
        ],
      }}
    >
      <Button type="text" data-testid="user-menu" style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        <Avatar size="small" icon={<UserOutlined />} />
        <span>{user?.name || user?.email}</span>
      </Button>
    </Dropdown>
  );
}
