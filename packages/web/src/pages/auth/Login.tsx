import { AuthCard } from './AuthCard.tsx';
import { LoginForm } from './LoginForm.tsx';

export default function Login() {
  return (
    <AuthCard title="用户登录">
      <LoginForm />
    </AuthCard>
  );
}
