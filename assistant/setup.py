"""What the assistant needs before it runs, read from config.toml and the options: the config checked with its
model specs, the model and the reward model through the one registry, the proactivity level. Each problem is a
`SetupError` naming the option or the setting.
"""

from __future__ import annotations

from typing import Any

from proactive.watcher.service import SetupError
from proactive.watcher.store import home


def load_config() -> home.Config:
    """config.toml checked against its schema (the watcher's own check, `command_line.check_config`), and its
    model specs against the model registry: anything unusable is one line naming the file, the setting and what
    would be valid."""
    from proactive.models.registry import MODEL_SPECS, REWARD_SPECS, model_problem, reward_problem
    from proactive.watcher.command_line import check_config

    config = check_config()
    for field, problem, valid in (("model", model_problem(config.model), MODEL_SPECS),
                                  ("rm", reward_problem(config.rm), REWARD_SPECS)):
        if problem:
            raise SetupError(str(home.ConfigError(field, getattr(config, field), f"{problem}; use {valid}",
                                                  path=home.config_path())))
    return config


def config_setting(option: str, value: Any, config: home.Config, field: str) -> tuple[Any, str]:
    """The option's value when given, else the config's, with where it came from (for error messages)."""
    if value is not None:
        return value, option
    return getattr(config, field), f"{home.config_path()}: {field}"


def load_model(spec: str, where: str) -> Any:
    """The model named by `spec` (through the one registry); `where` names the option or config setting."""
    from proactive.models.base import ModelError
    from proactive.models.registry import load_model as load

    try:
        return load(spec)
    except ModelError as exc:
        raise SetupError(f"{where}: {exc}") from None


def load_reward(spec: str, where: str) -> Any:
    """The reward model named by `spec` (through the one registry); `where` names the option or setting."""
    from proactive.models.base import ModelError
    from proactive.models.registry import load_reward as load

    try:
        return load(spec)
    except ModelError as exc:
        raise SetupError(f"{where}: {exc}") from None


def proactivity(value: str | None, config: home.Config) -> Any:
    """--proactivity when given, else the config's; a bad value is blamed on where it came from."""
    from proactive.assistant.policy import Proactivity

    try:
        return Proactivity.parse(value if value is not None else config.proactivity)
    except ValueError as exc:
        if value is None:  # the schema refuses it at load; this covers a Config built without load()
            raise SetupError(str(home.ConfigError("proactivity", config.proactivity,
                                                  home.SCHEMA["proactivity"].describe(),
                                                  path=home.config_path()))) from None
        raise SetupError(f"--proactivity: {exc}") from None
