/**
 * The antd icon names a page schema may give its menu entry (`menu.icon`): the icons of the side
 * menu's icon chunk (src/console/layout/menu-icon-set.tsx `ICONS_BY_NAME`; a test keeps both
 * lists equal). `schemas:check` refuses any other name.
 */
export const MENU_ICON_NAMES = [
  'AlertOutlined', 'ApiOutlined', 'AppstoreOutlined', 'AudioOutlined', 'AuditOutlined', 'BankOutlined', 'BarsOutlined',
  'BellOutlined', 'BookOutlined', 'BranchesOutlined', 'BulbOutlined', 'CheckSquareOutlined', 'ClockCircleOutlined',
  'CloudServerOutlined', 'CloudUploadOutlined', 'CommentOutlined', 'ContactsOutlined', 'CustomerServiceOutlined',
  'DatabaseOutlined', 'DeploymentUnitOutlined', 'ExperimentOutlined', 'FileImageOutlined', 'FileSearchOutlined',
  'FileTextOutlined', 'FolderOpenOutlined', 'FormOutlined', 'GiftOutlined', 'HighlightOutlined', 'IdcardOutlined',
  'ImportOutlined', 'KeyOutlined', 'LikeOutlined', 'LockOutlined', 'MailOutlined', 'MessageOutlined', 'NodeIndexOutlined',
  'NotificationOutlined', 'OrderedListOutlined', 'PhoneOutlined', 'PictureOutlined', 'ProfileOutlined', 'ReadOutlined',
  'RobotOutlined', 'SafetyCertificateOutlined', 'ScheduleOutlined', 'SettingOutlined', 'SnippetsOutlined', 'ShopOutlined',
  'ShoppingCartOutlined', 'ShoppingOutlined', 'SolutionOutlined', 'SoundOutlined', 'StarOutlined', 'StopOutlined',
  'SwapOutlined', 'SyncOutlined', 'TagsOutlined', 'TeamOutlined', 'ThunderboltOutlined', 'ToolOutlined', 'TrophyOutlined',
  'UnorderedListOutlined', 'UserOutlined', 'UserSwitchOutlined',
] as const;

