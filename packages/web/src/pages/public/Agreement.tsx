import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useGoBack } from '../../navigation/use-go-back.ts';
import { APP_NAME } from '../../navigation/names.ts';

const { Title, Paragraph, Text } = Typography;

const SECTIONS: { title: string; paragraphs: string[] }[] = [
  {
    title: '一、协议的范围',
    paragraphs: [
      `本声明适用于您注册、登录和使用${APP_NAME}（以下简称"本系统"）及其网页、小程序和设备接入服务的全部过程。您注册账号或登录本系统，即表示您已阅读、理解并同意本声明的全部内容。`,
    ],
  },
  {
    title: '二、账号与安全',
    paragraphs: [
      '您应使用真实、有效的邮箱注册账号，并妥善保管账号和密码。因您主动泄露密码或将账号交由他人使用而造成的损失，由您自行承担。',
      '如发现账号被他人使用，请立即修改密码并联系管理员。本系统可能对异常登录（如多次输错密码）采取临时锁定等保护措施。',
      '管理员可根据业务需要为您分配或调整角色与权限；您只能查看和操作与您账号绑定的设备与数据。',
    ],
  },
  {
    title: '三、我们收集的信息',
    paragraphs: [
      '账号信息：用户名、邮箱、联系电话、公司名称与公司地址，用于识别您的身份、找回密码和提供服务。',
      '设备数据：您名下的设备上报的运行状态、空气质量、客流、告警和位置等数据，用于展示、统计、提醒和生成报表。',
      '评价信息：公众在评价页面提交的星级、评价内容和选项，用于服务质量管理，不要求也不记录评价人的身份。为防止重复刷评，评价页面会在您的浏览器中保存一个随机编号，服务器只保存经不可逆处理的网络地址摘要，二者仅用于限制提交频率。',
      '日志信息：登录时间、访问的功能和操作记录，用于保障安全、排查故障。',
    ],
  },
  {
    title: '四、信息的使用与共享',
    paragraphs: [
      '我们仅在提供本系统服务所必需的范围内使用上述信息，不会出售您的个人信息。',
      '仅在以下情形向第三方提供信息：获得您的明确同意；您配置的数据对接接口；法律法规要求或有权机关依法要求。',
    ],
  },
  {
    title: '五、信息的存储与保护',
    paragraphs: [
      '您的信息存储在中华人民共和国境内。密码经不可逆加密后保存，登录凭证可随时通过"退出登录"失效。',
      '我们采取合理的技术和管理措施保护数据安全，但互联网环境并非绝对安全，请您同时做好账号保护。',
    ],
  },
  {
    title: '六、您的权利',
    paragraphs: [
      '您可以在"修改信息"中查看和更正联系电话、公司名称和公司地址；如需注销账号或删除数据，请联系管理员办理。',
    ],
  },
  {
    title: '七、声明的变更',
    paragraphs: [
      '本声明可能随服务调整而更新，更新后将在本页面公布。变更后您继续使用本系统，即视为接受更新后的内容。',
    ],
  },
];

export default function Agreement() {
  const goBack = useGoBack();
  return (
    <div style={{ maxWidth: 860, margin: '0 auto', padding: '24px 12px' }}>
      <Button type="link" icon={<ArrowLeftOutlined />} onClick={goBack} style={{ paddingInline: 0 }}>
        返回
      </Button>
      <Card>
        <Typography>
          <Title level={2} style={{ textAlign: 'center' }}>
            用户协议与隐私声明
          </Title>
          <Paragraph type="secondary" style={{ textAlign: 'center' }}>
            请在使用{APP_NAME}前仔细阅读本声明
          </Paragraph>
          {SECTIONS.map((section) => (
            <section key={section.title}>
              <Title level={4}>{section.title}</Title>
              {section.paragraphs.map((text) => (
                <Paragraph key={text}>{text}</Paragraph>
              ))}
            </section>
          ))}
          <Paragraph>
            <Text strong>如对本声明有任何疑问，请联系您的系统管理员或服务提供商。</Text>
          </Paragraph>
        </Typography>
      </Card>
    </div>
  );
}
