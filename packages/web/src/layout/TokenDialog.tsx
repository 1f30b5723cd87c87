import { KeyOutlined } from '@ant-design/icons';
import type { OdTokenStatus } from '@se/core';
import { Alert, Button, Descriptions, Flex, Modal, Popconfirm, Spin, Typography } from 'antd';
import { useState } from 'react';
import { getOdTokenStatus, resetOdToken } from '../api/auth.ts';
import { useCall } from '../components/run-call.ts';
import { SecretToken } from '../components/SecretToken.tsx';

const mask = (t: string) => `${t.slice(0, 4)}${'•'.repeat(12)}${t.slice(-4)}`;

/**
 * 登录令牌 (SPEC §3 User token, od_token) from the user menu: a long-lived token another
 * system or device exchanges for a session (login-with-token). The server keeps only its
 * hash, so it is shown once, when made; making a new one revokes the old one at once.
 */
export function useTokenDialog() {
  const [visible, setVisible] = useState(false);
  const [status, setStatus] = useState<OdTokenStatus | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const load = useCall();
  const reset = useCall();
  const refresh = () => load.run(getOdTokenStatus, { onOk: setStatus });

  const open = () => {
    setFresh(null);
    setStatus(null);
    setVisible(true);
    void refresh();
  };
  const make = () =>
    reset.run(resetOdToken, {
      success: status?.exists ? '已重新生成，旧令牌已失效' : '令牌已生成',
      onOk: async (d) => {
        setFresh(d.od_token);
        await refresh();
      },
    });
  const close = () => setVisible(false);

  const element = (
    <Modal
      open={visible}
      title="登录令牌"
      onCancel={close}
      footer={<Button onClick={close}>关闭</Button>}
      destroyOnHidden
    >
      <Spin spinning={load.busy}>
        <Flex vertical gap="middle" align="start">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            长期令牌用于其他系统或设备免密登录（login-with-token）。服务器只保存令牌的摘要，令牌只在生成时显示一次。
          </Typography.Paragraph>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'state', label: '状态', children: status ? (status.exists ? '已生成' : '未生成') : '—' },
              { key: 'time', label: '生成时间', children: status?.created_at ?? '—' },
            ]}
          />
          {fresh && (
            <Alert
              type="warning"
              showIcon
              style={{ width: '100%' }}
              title="请立即复制并妥善保存，关闭后无法再次查看"
              description={<SecretToken token={fresh} masked={mask(fresh)} />}
            />
          )}
          {status?.exists ? (
            <Popconfirm
              title="重新生成令牌"
              description="旧令牌将立即失效，使用它的系统需要换成新令牌。确定吗？"
              okText="重新生成"
              cancelText="取消"
              onConfirm={make}
            >
              <Button icon={<KeyOutlined />} loading={reset.busy}>
                重新生成
              </Button>
            </Popconfirm>
          ) : (
            <Button
              type="primary"
              icon={<KeyOutlined />}
              loading={reset.busy}
              disabled={!status}
              onClick={() => void make()}
            >
              生成令牌
            </Button>
          )}
        </Flex>
      </Spin>
    </Modal>
  );
  return { open, element };
}
