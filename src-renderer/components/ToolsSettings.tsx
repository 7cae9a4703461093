import { GrantedFoldersSettings } from './GrantedFoldersSettings';
import { McpServerSettings } from './McpServerSettings';
import { SkillsSettings } from './SkillsSettings';
import { ToolPolicySettings } from './ToolPolicySettings';

/** Settings → Tools: what brains may read and call, and the skills they can be started with. */
export function ToolsSettings() {
  return (
    <div className="tools-settings" data-testid="tools-settings">
      <GrantedFoldersSettings />
      <McpServerSettings />
      <ToolPolicySettings />
      <SkillsSettings />
    </div>
  );
}
